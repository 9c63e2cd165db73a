import { writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createDomainTableData } from '../../runtime/match'
import { createSiteSkills } from '../../runtime/registry'
import type { SkillMeta } from '../../runtime/skill-data'
import { buildApp } from '../helpers/bundlers'
import { makeTempDir, writeTree } from '../helpers/tmp'
import { runBin, runNode } from '../helpers/spawn'

/*
 * Issue 24.13: hosts and ids that are also names of Object.prototype's members. Underscores are
 * valid in a WHATWG URL host (`new URL('http://__proto__/').hostname` is `__proto__`), so these
 * patterns are valid and must match like any other.
 */
const DOMAINS = ['__proto__', '*.__proto__', 'constructor', '*.tostring', 'hasownproperty']
const URLS = {
  'http://__proto__/': ['constructor', 'odd'],
  'http://a.__proto__/x': ['odd'],
  'http://constructor/': ['odd'],
  'https://b.tostring/': ['odd'],
  'http://hasownproperty/': ['odd'],
  'http://valueof/': [],
}

const RETURNS = { type: 'object', description: 'The result.' }

function skill(id: string, domains: string[]): Record<string, unknown> {
  return {
    [`${id}/manifest.json`]: {
      id,
      name: `Skill ${id}`,
      domains,
      notes: ['notes/a.md'],
      nodeTools: {
        look: { description: 'Looks.', path: 'tools/look.js', callable: 'look', args: {}, returns: RETURNS },
      },
    },
    [`${id}/notes/a.md`]: `# Notes of ${id}\n`,
    [`${id}/tools/look.js`]: `export async function look() { return { from: ${JSON.stringify(id)} } }\n`,
  }
}

let tmp: Awaited<ReturnType<typeof makeTempDir>>
let root: string
beforeAll(async () => {
  tmp = await makeTempDir('user-keys-')
  root = join(tmp.dir, 'learnings')
  // A skill id `constructor` too (folders starting with `_` are not skills, as in the original).
  await writeTree(root, { ...skill('constructor', ['__proto__']), ...skill('odd', DOMAINS) })
})
afterAll(() => tmp.cleanup())

describe('tables keyed by hosts, ids and names (issue 24.13)', () => {
  it('the runtime matches `__proto__`, `*.__proto__` and other Object member names as hosts', () => {
    const metas = [
      { id: 'constructor', name: 'P', domains: ['__proto__'], notes: [], tools: {} },
      { id: 'odd', name: 'O', domains: DOMAINS, notes: [], tools: {} },
    ] satisfies SkillMeta[]
    const api = createSiteSkills({ skills: metas, table: createDomainTableData(metas.map((m) => m.domains)) }, {})
    for (const [url, ids] of Object.entries(URLS))
      expect(
        api.siteSkillsForUrl(url).map((s) => s.id),
        url,
      ).toEqual(ids)
    expect(Object.keys(api.sites)).toEqual(['constructor', 'odd'])
  })

  it('`site-skills validate` and `match` accept and match them; a URL `__proto__` is printed like any other', async () => {
    const validate = await runBin(['validate', '--json', root], { cwd: tmp.dir })
    expect(validate.code).toBe(0)
    const report = JSON.parse(validate.stdout) as {
      ok: boolean
      skills: number
      diagnostics: Record<string, unknown>[]
    }
    expect(report).toMatchObject({ ok: true, skills: 2 })
    // Both skills claim `__proto__`: the cross-skill table sees it as the key it is.
    expect(report.diagnostics.map((d) => `${d.file}:${d.line}:${d.column} ${d.code} ${d.message}`)).toEqual([
      'odd/manifest.json:5:5 domain-shadowed domain "__proto__" is also claimed by skill "constructor"',
    ])
    const match = await runBin(['match', '--json', '--root', root, ...Object.keys(URLS), '__proto__'], { cwd: tmp.dir })
    expect(match.code).toBe(0)
    expect(JSON.parse(match.stdout)).toEqual({ ...URLS, ['__proto__']: [] })
  })

  it('a command named like an Object member is a usage error, not a stack trace', async () => {
    for (const name of ['constructor', 'toString', '__proto__']) {
      const run = await runBin([name], { cwd: tmp.dir })
      expect(run.code, name).toBe(2)
      expect(run.stderr).toContain(`unknown command ${JSON.stringify(name)}`)
      expect(run.stderr).not.toContain('    at ')
    }
  })

  it('a real build serves the skill `constructor` and matches the host `__proto__`', async () => {
    const entry = join(tmp.dir, 'entry.js')
    const script = [
      "import { siteSkillsForUrl, loadLearnedContext, runTool, sites, skills } from 'virtual:site-skills'",
      'const out = {',
      '  ids: skills.map((s) => s.id),',
      '  matches: Object.fromEntries(Object.keys(URLS).map((u) => [u, siteSkillsForUrl(u).map((s) => s.id)])),',
      "  context: (await loadLearnedContext('http://__proto__/')).knowledge.map((n) => n.content.trim()),",
      "  ran: await runTool('constructor', 'look', {}),",
      '  stub: await sites.constructor.look({}),',
      '}',
      'console.log(JSON.stringify(out))',
    ].join('\n')
    await writeFile(entry, `const URLS = ${JSON.stringify(URLS)}\n${script}\n`)
    const out = await buildApp('esbuild', {
      entry,
      app: tmp.dir,
      outDir: join(tmp.dir, 'out'),
      options: { roots: root, dts: false },
    })
    const run = await runNode([out], { cwd: tmp.dir })
    expect(run.code).toBe(0)
    expect(JSON.parse(run.stdout)).toEqual({
      ids: ['constructor', 'odd'],
      matches: URLS,
      context: ['# Notes of constructor', '# Notes of odd'],
      ran: { from: 'constructor' },
      stub: { from: 'constructor' },
    })
  })
})
