import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { makeTempDir, writeTree } from '../helpers/tmp'
import { runBin } from '../helpers/spawn'

// `urls` patterns others write, and page paths others choose: neither may make matching super-linear.
const tool = (urls?: string[]) => ({
  description: 'Path of the page.',
  path: 'browser-tools/path.js',
  args: {},
  returns: { type: 'string', description: 'The page path.' },
  ...(urls ? { urls } : {}),
})
const PATH_TOOL = 'async function () { return location.pathname }\n'

/** A slug pattern as it is often written: a nested quantified group (minutes on a 30-character path). */
const NESTED = '/posts/:slug((?:[a-z0-9]+-?)+)'

let tmp: Awaited<ReturnType<typeof makeTempDir>>
let root: string
let mixed: string

beforeAll(async () => {
  tmp = await makeTempDir('url-budget-')
  root = join(tmp.dir, 'learnings')
  await writeTree(root, {
    'blog/manifest.json': [
      '{',
      '  "id": "blog",',
      '  "name": "Blog",',
      '  "domains": ["blog.example.com"],',
      `  "urls": ["/:owner/:repo", ${JSON.stringify(NESTED)}],`,
      '  "browserTools": {',
      `    "t": ${JSON.stringify(tool(['/:name.:ext']))}`,
      '  }',
      '}',
      '',
    ].join('\n'),
    'blog/browser-tools/path.js': PATH_TOOL,
  })
  mixed = join(tmp.dir, 'mixed')
  await writeTree(mixed, {
    'repos/manifest.json': {
      id: 'repos',
      name: 'Repositories',
      domains: ['blog.example.com'],
      urls: ['/:owner/:repo/*', '/*/issues/*'],
      browserTools: { repo_path: tool(['/:owner/:repo/issues/:n']) },
    },
    'repos/browser-tools/path.js': PATH_TOOL,
    'site/manifest.json': { id: 'site', name: 'Site', domains: ['blog.example.com'], browserTools: { any: tool() } },
    'site/browser-tools/path.js': PATH_TOOL,
    // Refused by validation, so never matched: before, `match` on the long URL below backtracked for minutes.
    'slugs/manifest.json': {
      id: 'slugs',
      name: 'Slugs',
      domains: ['blog.example.com'],
      urls: [NESTED],
      browserTools: { slug: tool() },
    },
    'slugs/browser-tools/path.js': PATH_TOOL,
  })
})
afterAll(() => tmp?.cleanup())

describe('urls patterns that cannot be matched in linear time', () => {
  it('validate refuses them with url-pattern at file:line:col, the reason and a hint, and exits', async () => {
    const run = await runBin(['validate', '--root', root, '--json'], { limitMs: 20_000 })
    expect(run.timedOut).toBe(false)
    expect(run.code).toBe(1)
    const found = JSON.parse(run.stdout).diagnostics.map((d: Record<string, unknown>) => ({
      at: `${d.file}:${d.line}:${d.column}`,
      code: d.code,
      message: d.message,
      hint: d.hint,
    }))
    expect(found).toEqual([
      {
        at: 'blog/manifest.json:5:29',
        code: 'url-pattern',
        message: `urls: URL pattern ${JSON.stringify(NESTED)} cannot be matched in time linear in the path: ${JSON.stringify(NESTED.slice(6))} repeats a group, which backtracks exponentially on a path that almost matches`,
        hint: 'Repeat a character class, not a group: "/:slug([a-z0-9-]+)".',
      },
      {
        at: expect.stringMatching(/^blog\/manifest\.json:7:\d+$/),
        code: 'url-pattern',
        message: expect.stringContaining('browserTools.t.urls: URL pattern "/:name.:ext" cannot be matched'),
        hint: expect.stringContaining('Give each part its own segment'),
      },
    ])
    const human = await runBin(['validate', '--root', root], { limitMs: 20_000 })
    expect(human.code).toBe(1)
    expect(human.stdout + human.stderr).toContain('blog/manifest.json:5:29')
  })

  it('match and context answer on hostile and long paths: a refused pattern and a path over the limit match nothing', async () => {
    // The nested group backtracks exponentially on letters and then a character it cannot take.
    const long = `https://blog.example.com/posts/${'a'.repeat(100_000)}!`
    const hostile = `https://blog.example.com/posts/${'a'.repeat(40)}!`
    const near = `https://blog.example.com/${'a/'.repeat(3000)}issues/7`
    const short = 'https://blog.example.com/acme/lib/issues/7'
    const match = await runBin(['match', '--json', long, hostile, near, short, '--root', mixed], {
      limitMs: 20_000,
    })
    expect(match.timedOut).toBe(false)
    expect(JSON.parse(match.stdout)).toEqual({
      [long]: ['site'],
      [hostile]: ['site'],
      [near]: ['repos', 'site'],
      [short]: ['repos', 'site'],
    })
    const context = await runBin(['context', '--json', long, '--root', mixed], { limitMs: 20_000 })
    expect(context.timedOut).toBe(false)
    const parsed = JSON.parse(context.stdout)
    expect(parsed.tools.map((t: { siteId: string; toolName: string }) => `${t.siteId}.${t.toolName}`)).toEqual([
      'site.any',
    ])
  })
})
