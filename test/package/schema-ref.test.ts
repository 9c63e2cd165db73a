import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { cp, mkdir, symlink } from 'node:fs/promises'
import { dirname, join, resolve } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { manifestSchema } from '../../src/compiler/validate/schema'
import { REPO_ROOT, makeTempDir } from '../helpers/tmp'
import { runBin } from '../helpers/spawn'

const SHIPPED = readdirSync(join(REPO_ROOT, 'learnings'), { withFileTypes: true })
  .filter((e) => e.isDirectory())
  .map((e) => e.name)

const schemaOf = (manifest: string) => (JSON.parse(readFileSync(manifest, 'utf8')) as { $schema: string }).$schema

let tmp: Awaited<ReturnType<typeof makeTempDir>>
let project: string
beforeAll(async () => {
  tmp = await makeTempDir('schema-ref-')
  // A user's project: the package installed in node_modules (here: this checkout), skills in learnings/.
  project = join(tmp.dir, 'project')
  await mkdir(join(project, 'node_modules'), { recursive: true })
  await symlink(REPO_ROOT, join(project, 'node_modules/unplugin-site-skills'))
  for (const id of SHIPPED)
    await cp(join(REPO_ROOT, 'learnings', id), join(project, 'learnings', id), { recursive: true })
})
afterAll(() => tmp.cleanup())

describe('the $schema of a manifest', () => {
  it.each(SHIPPED)('of the shipped %s resolves in this repository, to the package schema', (id) => {
    const manifest = join(REPO_ROOT, 'learnings', id, 'manifest.json')
    const file = resolve(dirname(manifest), schemaOf(manifest))
    expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual(manifestSchema)
  })

  it.each(SHIPPED)('of the shipped %s, copied into a project, resolves to the installed package', (id) => {
    const manifest = join(project, 'learnings', id, 'manifest.json')
    const file = resolve(dirname(manifest), schemaOf(manifest))
    expect(file).toBe(join(project, 'node_modules/unplugin-site-skills/manifest.schema.json'))
    expect(existsSync(file)).toBe(true)
  })

  it('that site-skills new writes is the same reference, from the project and from a folder below it', async () => {
    const made = await runBin(['new', 'probe', '--domain', 'probe.example.com'], { cwd: project })
    expect(made.code, made.stderr).toBe(0)
    expect(schemaOf(join(project, 'learnings/probe/manifest.json'))).toBe(
      schemaOf(join(REPO_ROOT, 'learnings/demo-shop/manifest.json')),
    )
    // Run from a subfolder with a root of its own: the package is found in the project's node_modules.
    await mkdir(join(project, 'agent'), { recursive: true })
    const nested = await runBin(['new', 'deep', '--domain', 'deep.example.com', '--root', 'skills'], {
      cwd: join(project, 'agent'),
    })
    expect(nested.code, nested.stderr).toBe(0)
    const manifest = join(project, 'agent/skills/deep/manifest.json')
    expect(schemaOf(manifest)).toBe('../../../node_modules/unplugin-site-skills/manifest.schema.json')
    expect(existsSync(resolve(dirname(manifest), schemaOf(manifest)))).toBe(true)
  })
})
