import { readdir, stat } from 'node:fs/promises'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { TMP } from '../../bench/generate'
import { runCachedBench } from '../../bench/cached'
import { runErasBench } from '../../bench/eras'
import { runHostileBench } from '../../bench/hostile'
import { runIdleBench } from '../../bench/idle'
import { runMemoryBench } from '../../bench/memory'
import { rebuildTask } from '../../bench/rebuild'
import { generateSkills } from '../../bench/generate'
import { runSmallBench } from '../../bench/small'
import { runTokensBench } from '../../bench/tokens'
import type { Figure } from '../../bench/table'

/** Every figure measured (no error), with a subject and a baseline that are real sizes or times. */
function expectMeasured(figures: Figure[]): void {
  for (const f of figures) {
    expect(f.error, f.name).toBeUndefined()
    expect(f.subject!.value.median, f.name).toBeGreaterThan(0)
    expect(f.baseline!.value.median, f.name).toBeGreaterThan(0)
    expect(Number.isFinite(f.ratio!.median), f.name).toBe(true)
  }
}

const sizeOf = async (file: string) => (await stat(file)).size

// The rows of `npm run bench` that build in child processes, on the smallest input that runs
// their code (no timing is asserted: only that each side measured what it claims to).
describe('benchmark rows', () => {
  it('small project: both builds produce the same agent, with the plugin and without it', async () => {
    const figures = await runSmallBench({ runs: 1 })
    expect(figures.map((f) => f.name)).toEqual([
      'small project: the playground agent (6 shipped skills), Vite build with the plugin vs without',
      'small project: the same build with the persistent cache one build wrote vs without the plugin',
    ])
    expectMeasured(figures)
    for (const f of figures) expect(f.goal?.text).toBe('the plugin adds under 100.0 ms')
    // The cached row builds on the cache file an untimed build wrote first.
    expect((await readdir(join(TMP, 'small/cache'))).some((f) => f.startsWith('skills-'))).toBe(true)
    // The baseline is honest only if Vite alone built the same code from the written-out modules.
    const work = join(TMP, 'small')
    expect((await readdir(join(work, 'served/m/skill'))).sort()).toEqual(
      ['demo-shop', 'github', 'google-workspace', 'hacker-news', 'mdn', 'wikipedia'].map((s) => `${s}.js`),
    )
    const withPlugin = await sizeOf(join(work, 'dist-plugin/agent.js'))
    const without = await sizeOf(join(work, 'dist-alone/agent.js'))
    expect(Math.abs(withPlugin - without) / withPlugin).toBeLessThan(0.01)
  })

  it('cached: builds with the persistent cache against Vite alone on their modules and against no cache', async () => {
    const figures = await runCachedBench({ runs: 1, skills: 20 })
    expect(figures.map((f) => f.name)).toEqual([
      'Vite build in a new process, 20 unchanged skills, persistent cache vs Vite alone on the generated modules',
      'Vite build in a new process, 20 unchanged skills: persistent cache vs none',
    ])
    expectMeasured(figures)
    expect(figures[0]!.goal?.text).toBe('within 1.2x of Vite alone')
    // The cached build compiled nothing: every skill came from the cache file the first build wrote.
    expect(figures[0]!.notes?.[0]).toMatch(/0 call\(s\) for 0 tools/)
    expect((await readdir(join(TMP, 'cache-20'))).some((f) => f.startsWith('skills-'))).toBe(true)
  })

  it('memory: a build against the idle process, Vite alone on its modules, and esbuild alone', async () => {
    const figures = await runMemoryBench({ sizes: [20] })
    expect(figures.map((f) => f.name)).toEqual([
      'peak RSS, cold Vite build, 20 skills',
      'peak RSS, 20 skills: Vite build with the plugin vs Vite alone on the modules it generated',
      "esbuild's peak RSS, 20 skills: in the plugin's build vs esbuild alone on the same tools",
    ])
    expectMeasured(figures)
    // Vite alone built every module the plugin generated: the main module and one chunk per skill.
    expect(figures[1]!.notes?.[0]).toContain('the 21 generated modules')
    expect((await readdir(join(TMP, 'served-20/m/skill'))).length).toBe(20)
  })

  it('hostile: each hostile input (URL path, secret scan, token count) against ordinary input of its size', async () => {
    const figures = await runHostileBench({ runs: 1, path: 300, scan: 3000, text: 3000 })
    expect(figures.map((f) => f.name.split(':')[0])).toEqual([
      'urls',
      ...Array(3).fill("pack's secret scan, 3 KB"),
      ...Array(4).fill('token count (o200k_base), 3 K characters'),
    ])
    expectMeasured(figures)
    for (const f of figures) expect(f.goal?.text).toBe('under 500.0 ms')
  })

  it('idle: a dev server with the plugin and Vite alone, each measured over its window', async () => {
    const figures = await runIdleBench({ runs: 1, skills: 20, windowMs: 1000 })
    expect(figures.map((f) => f.name)).toEqual([
      'Vite dev server, 20 skills, idle 1 s: CPU time with the plugin vs Vite alone',
    ])
    expectMeasured(figures)
  })

  it('rebuild: each edit is in the output of its watch rebuild, and Vite alone rebuilds the same modules', async () => {
    const root = await generateSkills(20, 'rebuild-20', true)
    const app = join(TMP, 'app-watch-20')
    const session = await rebuildTask({ root, app, outDir: join(app, 'dist'), cycles: 1, skills: 20 })
    expect(session.edits.map((e) => ({ kind: e.kind, failed: e.failed, seen: e.seen }))).toEqual(
      (['tool', 'manifest', 'add'] as const).map((kind) => ({ kind, failed: false, seen: true })),
    )
    // One floor rebuild after each edit, each a build that ended (a floor that never rebuilt throws).
    expect(session.floorMs).toHaveLength(3)
    for (const ms of session.floorMs) expect(ms).toBeGreaterThan(0)
    // The main module and a chunk for each of the 20 skills and the one added.
    expect(session.served.modules).toBe(22)
  })

  it('tokens: a saved page read through site-skills mcp, as its innerText, by Playwright MCP and chrome-devtools-mcp', async () => {
    const figures = await runTokensBench({ runs: 1, pages: 1 })
    const page = 'hacker-news fixtures/front-2020.html'
    expect(figures.map((f) => f.name)).toEqual([
      `tokens, ${page}: our reads vs the page's innerText`,
      "tokens over 1 saved real pages: our reads vs Playwright MCP's snapshot (median of the per-page ratios)",
      "tokens over 1 saved real pages: our reads vs chrome-devtools-mcp's take_snapshot (median of the per-page ratios)",
      "tokens over 1 saved real pages: our reads vs the page's innerText (median of the per-page ratios)",
      'pages whose reads cost more tokens than their innerText, of 1 saved real pages',
      'largest single call with default arguments, over 1 saved real pages',
      'facts of the examples stated by our reads, over 1 saved real pages',
      "time of a read over 1 saved real pages: our calls vs Playwright MCP's snapshot (median of the per-page ratios)",
      "tool list of hacker-news in --tools page mode (the own tools and the site's; its largest page)",
    ])
    // A count of pages over their innerText may be 0; every other figure is a measured size or time.
    expectMeasured(figures.filter((f) => !f.name.startsWith('pages whose')))
    expect(figures[4]!.baseline!.value.median).toBe(1)
    // The page was served at its real address: our tool read its 30 stories, and every fact of the
    // examples on it (titles, points, comment counts) is in what the server answered.
    const [perPage, , , , , , facts] = figures
    expect(perPage!.notes?.[2]).toMatch(/^all \d+ facts of its examples stated$/)
    expect(facts!.baseline!.value.median).toBeGreaterThanOrEqual(90)
    expect(facts!.subject!.value.median).toBe(facts!.baseline!.value.median)
    // Playwright's snapshot of the same page is a real one: many times the page's own text.
    expect(figures[1]!.baseline!.value.median).toBeGreaterThan(perPage!.baseline!.value.median)
  }, 180_000)

  it('eras: the same browser tool call in a 2025 session and as a 2026-07-28 request, on one server', async () => {
    const figures = await runErasBench({ runs: 1, calls: 2 })
    expect(figures.map((f) => f.name)).toEqual([
      'MCP tools/call of a browser tool (demo-shop__read_products) over HTTP: 2026-07-28 request vs 2025 session',
    ])
    expectMeasured(figures)
    expect(figures[0]!.goal?.text).toBe('within 1.1x of the same call in a 2025 session')
  })
})
