import { writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type CompileResult, createCompiler } from '../../src/compiler/compile'
import type { Focus } from '../../src/compiler/focus'
import { current } from '../../src/nobuild/api'
import { closeSiteSkills, runNodeSiteTool, siteSkillsForUrl, validateSiteSkills } from '../../src/index'
import { makeTempDir, writeTree } from '../helpers/tmp'

/** A manifest with one Node tool `echo` (tools/echo.js) and the given domains. */
function manifest(id: string, domains: string[], extra: Record<string, unknown> = {}) {
  return {
    id,
    name: id,
    domains,
    notes: [],
    nodeTools: {
      echo: {
        description: 'Echoes its args.',
        path: 'tools/echo.js',
        callable: 'echo',
        args: { text: { type: 'string', required: true, description: 'Text.' } },
        returns: { type: 'object', description: 'What it got.' },
      },
    },
    ...extra,
  }
}

const ECHO = 'export function echo(ctx, args) {\n  return { ctx, args }\n}\n'

function skill(id: string, domains: string[], extra?: Record<string, unknown>): Record<string, unknown> {
  return { [`${id}/manifest.json`]: manifest(id, domains, extra), [`${id}/tools/echo.js`]: ECHO }
}

/**
 * Skills whose findings depend on each other: `b-shop` claims a pattern `a-shop` claimed first
 * (a domain-shadowed warning); `c-broken` is invalid (its tool file is missing), so the pattern it
 * shares with `d-other` does not shadow `d-other`; `e-good` stands alone; `f-broken` has a tool that
 * does not parse; `g_tools` has a model tool name `g.tools` took first (an error: it is left out).
 */
const TREE = {
  ...skill('a-shop', ['shop.example.com']),
  ...skill('b-shop', ['shop.example.com', 'b.example.com']),
  'c-broken/manifest.json': manifest('c-broken', ['other.example.com']),
  ...skill('d-other', ['other.example.com', '*.other.example.com']),
  ...skill('e-good', ['good.example.com']),
  ...skill('f-broken', ['broken.example.com']),
  'f-broken/tools/echo.js': 'export function echo( {\n',
  ...skill('g.tools', ['g1.example.com']),
  ...skill('g_tools', ['g2.example.com']),
}

let tmp: Awaited<ReturnType<typeof makeTempDir>>
let root: string
let full: CompileResult

beforeAll(async () => {
  tmp = await makeTempDir('focused-')
  root = join(tmp.dir, 'learnings')
  await writeTree(root, TREE)
  await writeFile(join(tmp.dir, 'package.json'), '{ "type": "module" }\n')
  full = await createCompiler({ roots: [root], lazyBrowser: true }).compile()
})
afterAll(async () => {
  closeSiteSkills()
  await tmp.cleanup()
})

const ids = (result: CompileResult) => result.skills.map((s) => s.model.id)
const reportOf = (result: CompileResult, id: string) => result.reports.find((r) => r.id === id)

describe('a focused compile (the no-build first call) checks only what it answers from', () => {
  it('the full compile of the fixture finds what the focused ones must agree with', () => {
    expect(ids(full)).toEqual(['a-shop', 'b-shop', 'd-other', 'e-good', 'g.tools'])
    expect(reportOf(full, 'b-shop')!.diagnostics.map((d) => d.code)).toContain('domain-shadowed')
    expect(reportOf(full, 'c-broken')!.diagnostics.some((d) => d.severity === 'error')).toBe(true)
    expect(reportOf(full, 'f-broken')!.diagnostics.some((d) => d.severity === 'error')).toBe(true)
    expect(reportOf(full, 'g_tools')!.diagnostics.map((d) => d.code)).toContain('tool-name-collision')
  })

  const cases: [Focus, string[], string[]][] = [
    [{ siteId: 'e-good' }, ['e-good'], ['e-good']],
    [{ url: 'https://good.example.com/x' }, ['e-good'], ['e-good']],
    // b-shop is decided by a-shop, which claimed its pattern first.
    [{ siteId: 'b-shop' }, ['a-shop', 'b-shop'], ['a-shop', 'b-shop']],
    [{ url: 'https://b.example.com/' }, ['a-shop', 'b-shop'], ['a-shop', 'b-shop']],
    // g_tools is left out for a name g.tools took first.
    [{ siteId: 'g_tools' }, ['g.tools', 'g_tools'], ['g.tools']],
    [{ url: 'https://g2.example.com/' }, ['g.tools', 'g_tools'], ['g.tools']],
    // d-other shares a pattern with the invalid c-broken, which is checked to know it claims nothing.
    [{ url: 'https://x.other.example.com/' }, ['c-broken', 'd-other'], ['d-other']],
    [{ url: 'https://nowhere.example.net/' }, [], []],
  ]
  for (const [focus, checked, valid] of cases) {
    it(`${JSON.stringify(focus)}: checks ${checked.join(', ') || 'nothing'}, with the findings of the full compile`, async () => {
      const result = await createCompiler({ roots: [root], lazyBrowser: true }).compile(focus)
      expect(result.revalidated).toEqual(checked)
      expect(result.reports.map((r) => r.id)).toEqual(checked)
      expect(ids(result)).toEqual(valid)
      for (const id of checked) expect(reportOf(result, id)).toEqual(reportOf(full, id))
    })
  }
})

describe('the one-shot path', () => {
  it('a broken other skill does not block a call to a good one, and validateSiteSkills still reports it', async () => {
    const options = { root, watch: false }
    closeSiteSkills()
    // What the call answers from: that skill alone, checked in the session's first compile.
    expect((await current(options, false, { siteId: 'e-good' })).result.revalidated).toEqual(['e-good'])
    closeSiteSkills()
    expect(await runNodeSiteTool('e-good', 'echo', { text: 'hi' }, { page: 1 }, options)).toEqual({
      ctx: { page: 1 },
      args: { text: 'hi' },
    })
    const errors = await validateSiteSkills(root)
    expect(errors.some((e) => e.startsWith('f-broken: '))).toBe(true)
    expect(errors.some((e) => e.startsWith('c-broken: '))).toBe(true)
    expect(errors.some((e) => e.startsWith('g_tools: '))).toBe(true)
    expect(errors.some((e) => e.startsWith('e-good: '))).toBe(false)
  })

  it('a first lookup answers as the full compile does, and so do the calls after it', async () => {
    const expected: [string, string[]][] = [
      ['https://shop.example.com/', ['a-shop', 'b-shop']],
      ['https://b.example.com/', ['b-shop']],
      ['https://www.other.example.com/', ['d-other']],
      ['https://g2.example.com/', []],
    ]
    for (const [url, found] of expected) {
      // Sessions forgotten: each URL's lookup is the first call of a new session.
      closeSiteSkills()
      const first = await siteSkillsForUrl(url, { root })
      const again = await siteSkillsForUrl(url, { root })
      expect(first.map((e) => e.id)).toEqual(found)
      expect(again.map((e) => e.id)).toEqual(found)
    }
  })
})
