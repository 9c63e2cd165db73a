import { mkdir, readFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildApp } from '../helpers/bundlers'
import {
  type AuthorWorld,
  authorArgs,
  call,
  createAuthorWorld,
  digests,
  LIST_PRODUCTS_V1,
  LIST_PRODUCTS_V2,
  listProducts,
  SHOP_V2,
  textOf,
  jsonOf,
} from './author-world'
import { stdioClient, type Watched } from './harness'
import { runBin } from '../helpers/spawn'

/** One call of the agent: what it sent, what came back (in brief) and how long it took. */
interface Step {
  step: string
  tool: string
  ms: number
  back: string
}

let world: AuthorWorld
let mcp: Watched & { stderr: () => string }
const transcript: Step[] = []
const SITE = 'corner-shop-test'

/** Calls a tool and records the call for the transcript (timings are reported, never asserted). */
async function step(name: string, tool: string, args: Record<string, unknown>, brief: (r: CallToolResult) => string) {
  const started = performance.now()
  const result = await call(mcp, tool, args)
  transcript.push({ step: name, tool, ms: Math.round(performance.now() - started), back: brief(result) })
  return result
}

beforeAll(async () => {
  world = await createAuthorWorld()
  mcp = await stdioClient(['--allow-write', world.dir, ...authorArgs(world)])
})

afterAll(async () => {
  await mcp?.client.close()
  if (process.env.SITE_SKILLS_LOOP_TRANSCRIPT)
    await writeFile(process.env.SITE_SKILLS_LOOP_TRANSCRIPT, `${JSON.stringify(transcript, null, 2)}\n`)
  await world?.close()
})

describe('the learning loop over MCP: an agent writes, tests and repairs a skill', () => {
  it('learns a page no skill knows, repairs the tool after the site changes, and the CLI and Vite agree', async () => {
    const url = world.url('corner-shop.test')
    await step('open the page', 'site_skills_navigate', { url }, (r) => `skills: ${JSON.stringify(jsonOf(r).skills)}`)

    const snapped = await step('snapshot it', 'site_skills_snapshot', { name: 'home' }, (r) =>
      JSON.stringify(jsonOf(r)),
    )
    expect(snapped.isError, textOf(snapped)).toBeFalsy()
    expect(jsonOf(snapped)).toMatchObject({
      kept: true,
      created: true,
      site: SITE,
      file: `${SITE}/fixtures/home.html`,
    })
    const fixture = await readFile(join(world.dir, SITE, 'fixtures/home.html'), 'utf8')
    expect(fixture).toMatch(/^<!-- site-skills fixture\n\{\n {2}"url": "http:\/\/corner-shop\.test:\d+\/"/)
    expect(fixture).not.toContain('<script')
    expect(fixture).not.toContain('1234')
    const manifest = JSON.parse(await readFile(join(world.dir, SITE, 'manifest.json'), 'utf8'))
    expect(manifest).toMatchObject({ id: SITE, domains: ['corner-shop.test'], browserTools: {} })

    // A deliberate mistake: a parenthesis missing. Nothing is written; the diagnostic says where.
    const before = await digests(world.dir)
    const broken = LIST_PRODUCTS_V1.replace('.textContent),', '.textContent,')
    const wrong = await step(
      'write the tool (with a mistake)',
      'site_skills_write_tool',
      listProducts(SITE, broken),
      (r) => JSON.stringify(jsonOf(r).diagnostics),
    )
    expect(wrong.isError).toBe(true)
    expect(jsonOf(wrong).kept).toBe(false)
    const diagnostic = jsonOf(wrong).diagnostics[0]!
    expect(diagnostic.at).toMatch(new RegExp(`^${SITE}/browser-tools/list-products\\.js:\\d+:\\d+$`))
    expect(diagnostic).toMatchObject({ severity: 'error' })
    expect(diagnostic.hint).toEqual(expect.any(String))
    expect(await digests(world.dir)).toEqual(before)

    const changed = mcp.nextToolsChange()
    const kept = await step(
      'write the tool again, fixed',
      'site_skills_write_tool',
      listProducts(SITE, LIST_PRODUCTS_V1),
      (r) =>
        JSON.stringify({
          kept: jsonOf(r).kept,
          tool: jsonOf(r).tool,
          runs: jsonOf(r).runs.map((x) => `${x.on} ${x.status}`),
        }),
    )
    expect(jsonOf(kept), textOf(kept)).toMatchObject({ kept: true, tool: expect.any(String) })
    expect(jsonOf(kept).runs.map((r) => [r.on, r.status])).toEqual([
      ['fixture', 'pass'],
      ['live', 'pass'],
    ])
    const name = jsonOf(kept).tool as string
    // The runs opened tabs of their own, in contexts no client sees: the agent still has its one tab.
    const tabs = await call(mcp, 'site_skills_tabs')
    expect((tabs.structuredContent as { tabs: { url: string }[] }).tabs.map((t) => t.url)).toEqual([url])
    await changed
    const { tools } = await mcp.client.listTools()
    expect(tools.map((t) => t.name)).toContain(name)

    const listed = await step('call the new tool', name, {}, (r) => JSON.stringify(r.structuredContent))
    expect(listed.structuredContent).toEqual({
      products: [
        { name: 'Tea', price: 3.5 },
        { name: 'Cake', price: 2.25 },
      ],
    })

    world.setShop(SHOP_V2)
    const drift = await step('the site changed: test live', 'site_skills_test', { site: SITE, live: true }, (r) =>
      JSON.stringify(jsonOf(r).results.map((x) => ({ kind: x.kind, fields: x.fields }))),
    )
    expect(jsonOf(drift).ok).toBe(false)
    const drifted = jsonOf(drift).results[0]!
    expect(drifted).toMatchObject({ tool: 'list_products', status: 'fail', kind: 'selector-drift' })
    expect(drifted.fields).toEqual(['result.products'])
    expect(drifted.repair.steps.map((s) => s.tool)).toEqual([
      'site_skills_navigate',
      'site_skills_snapshot',
      'site_skills_write_tool',
    ])

    // The repair, as the result says: open the page again, save it, write the tool against it.
    await step('open the page again', 'site_skills_navigate', { url }, () => 'loaded')
    const again = await step('snapshot the new page', 'site_skills_snapshot', { site: SITE, name: 'home' }, (r) =>
      JSON.stringify({ kept: jsonOf(r).kept, created: jsonOf(r).created }),
    )
    expect(jsonOf(again)).toMatchObject({ kept: true, created: false })
    const repaired = await step(
      'repair the tool',
      'site_skills_write_tool',
      listProducts(SITE, LIST_PRODUCTS_V2),
      (r) => JSON.stringify({ kept: jsonOf(r).kept, runs: jsonOf(r).runs.map((x) => `${x.on} ${x.status}`) }),
    )
    expect(jsonOf(repaired)?.kept, textOf(repaired)).toBe(true)
    const passing = await step('test live again', 'site_skills_test', { site: SITE, live: true }, (r) =>
      JSON.stringify({ ok: jsonOf(r).ok, passed: jsonOf(r).passed }),
    )
    expect(jsonOf(passing)).toMatchObject({ ok: true, passed: 1 })
    const noted = await step(
      'write what it learned',
      'site_skills_write_note',
      {
        site: SITE,
        file: 'catalog.md',
        text: '# Catalog\n\nProducts are `#catalog .card` articles (title `.title`, price `.cost`).',
      },
      (r) => JSON.stringify(jsonOf(r)),
    )
    expect(jsonOf(noted)).toMatchObject({ kept: true, file: `${SITE}/notes/catalog.md` })
    expect(mcp.stderr()).not.toMatch(/invalid skill/)

    // What the agent wrote passes the CLI (the real binary) and a Vite build of the root.
    const timed = async <T>(what: string, work: () => Promise<T>) => {
      const started = performance.now()
      const out = await work()
      transcript.push({ step: what, tool: 'cli', ms: Math.round(performance.now() - started), back: '' })
      return out
    }
    const validated = await timed('site-skills validate', () =>
      runBin(['validate', '--root', world.dir], { cwd: world.dir, limitMs: 60_000 }),
    )
    expect(validated.stderr).toBe('')
    expect(validated.code).toBe(0)
    const tested = await timed('site-skills test', () =>
      runBin(['test', '--root', world.dir], { cwd: world.dir, limitMs: 60_000 }),
    )
    expect(tested.stdout).toContain(`✔ ${SITE} › list_products › home`)
    expect(tested.code).toBe(0)
    const app = join(world.dir, '..', 'app')
    await mkdir(app, { recursive: true })
    const entry = join(app, 'entry.js')
    await writeFile(
      entry,
      "import { skills, siteSkillsForUrl } from 'virtual:site-skills'\n" +
        'export const ids = skills.map((s) => s.id)\n' +
        `export const tools = Object.keys(skills.find((s) => s.id === ${JSON.stringify(SITE)}).tools)\n` +
        "export const match = siteSkillsForUrl('http://corner-shop.test/').map((s) => s.id)\n",
    )
    const out = await timed('vite build', () =>
      buildApp('vite', { outDir: join(app, 'dist'), entry, app, options: { roots: [world.dir] } }),
    )
    const built = await import(pathToFileURL(out).href)
    expect(built.ids).toEqual([SITE])
    expect(built.tools).toEqual(['list_products'])
    expect(built.match).toEqual([SITE])
  })
})
