import { writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { makeTempDir, writeTree } from '../helpers/tmp'
import { type Exited, runNode } from '../helpers/spawn'

const DOUBLE = {
  description: 'Doubles n.',
  path: 'tools/double.js',
  callable: 'double',
  args: { n: { type: 'integer', required: true, description: 'A number.' } },
  returns: { type: 'integer', description: 'A number.' },
}

/** Calls each function of the no-build API once (and one that fails), then returns. */
const ONE_SHOT = `import { loadLearnedContext, runNodeSiteTool, siteSkillsForUrl } from 'unplugin-site-skills'
const root = process.argv[2]
const ids = (await siteSkillsForUrl('https://shop.example.com/', { root })).map((s) => s.id)
const context = await loadLearnedContext('https://shop.example.com/', { root })
const value = await runNodeSiteTool('shop', 'double', { n: 4 }, {}, { root })
const missing = await runNodeSiteTool('nope', 'double', {}, {}, { root }).catch((e) => e.code)
console.log(JSON.stringify({ ids, exists: context.exists, value, missing }))
`

/** A longer-lived script: it sees an edit made while it runs, and still exits when done. */
const LIVE = `import { writeFile } from 'node:fs/promises'
import { runNodeSiteTool } from 'unplugin-site-skills'
const root = process.argv[2]
const before = await runNodeSiteTool('shop', 'double', { n: 4 }, {}, { root })
await writeFile(root + '/shop/tools/double.js', 'export const double = (ctx, args) => args.n * 20\\n')
// Read back at once: the API sees a change made before the call.
const after = await runNodeSiteTool('shop', 'double', { n: 4 }, {}, { root })
console.log(JSON.stringify({ before, after }))
`

/** A CI step written from docs/no-build.md: fail on any finding of the root given as \`{ root }\`. */
const CI_CHECK = `import { validateSiteSkills } from 'unplugin-site-skills'
const errors = await validateSiteSkills({ root: process.argv[2] })
if (errors.length > 0) {
  console.error(errors.join('\\n'))
  process.exit(1)
}
console.log('skills ok')
`

const TOOLS = { nodeTools: { double: DOUBLE } }

let tmp: Awaited<ReturnType<typeof makeTempDir>>
let root: string
beforeAll(async () => {
  tmp = await makeTempDir('nobuild-exits-')
  root = join(tmp.dir, 'learnings')
  await writeTree(tmp.dir, {
    'package.json': '{ "type": "module" }\n',
    'one-shot.mjs': ONE_SHOT,
    'live.mjs': LIVE,
    'ci-check.mjs': CI_CHECK,
  })
})
afterAll(() => tmp.cleanup())

/** The script ended by itself (not killed at the time limit), successfully. */
function expectExit(run: Exited): void {
  expect(run.timedOut, `killed after ${Math.round(run.ms)} ms; stdout: ${run.stdout} stderr: ${run.stderr}`).toBe(false)
  expect(run.code, run.stderr).toBe(0)
}

async function writeSkill(): Promise<void> {
  await writeTree(root, {
    'shop/manifest.json': { id: 'shop', name: 'Shop', domains: ['shop.example.com'], notes: ['notes/a.md'], ...TOOLS },
    'shop/notes/a.md': '# Shop\n',
    'shop/tools/double.js': 'export const double = (ctx, args) => args.n * 2\n',
  })
}

describe('a script that uses the no-build API exits on its own', () => {
  it('after siteSkillsForUrl, loadLearnedContext and runNodeSiteTool (without closeSiteSkills)', async () => {
    await writeSkill()
    const run = await runNode(['one-shot.mjs', root], { cwd: tmp.dir })
    expectExit(run)
    expect(JSON.parse(run.stdout)).toEqual({ ids: ['shop'], exists: true, value: 8, missing: 'skill-not-found' })
  })

  it('after seeing a tool edited while it ran', async () => {
    await writeSkill()
    await writeFile(join(root, 'shop/tools/double.js'), 'export const double = (ctx, args) => args.n * 2\n')
    const run = await runNode(['live.mjs', root], { cwd: tmp.dir })
    expectExit(run)
    expect(JSON.parse(run.stdout)).toEqual({ before: 8, after: 80 })
  })
})

describe('a CI script that checks the skills with validateSiteSkills({ root })', () => {
  it('passes on valid skills, fails on a broken skill and on a root that does not exist', async () => {
    await writeSkill()
    const clean = await runNode(['ci-check.mjs', root], { cwd: tmp.dir })
    expectExit(clean)
    expect(clean.stdout).toContain('skills ok')

    await writeFile(join(root, 'shop/manifest.json'), '{ "id": "shop", "name": "Shop", "domains": ["*.com"] }\n')
    const broken = await runNode(['ci-check.mjs', root], { cwd: tmp.dir })
    expect(broken.timedOut).toBe(false)
    expect(broken.code).toBe(1)
    expect(broken.stderr).toContain('shop: invalid domain "*.com"')

    const missing = await runNode(['ci-check.mjs', join(tmp.dir, 'no-such-folder')], { cwd: tmp.dir })
    expect(missing.timedOut).toBe(false)
    expect(missing.code).toBe(1)
    expect(missing.stderr).toContain(`no learnings folder at "${join(tmp.dir, 'no-such-folder')}"`)
    expect(missing.stderr).toContain("code: 'root-missing'")
  })
})
