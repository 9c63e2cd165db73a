import { execFileSync } from 'node:child_process'
import { createHash } from 'node:crypto'
import { chownSync, lstatSync, readFileSync, readdirSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { SHOP_MANIFEST } from '../helpers/shop-skill'
import { REPO_ROOT, makeTempDir, writeTree } from '../helpers/tmp'
import { type Exited, cleanEnv, runNode } from '../helpers/spawn'

// Issue 35: the build caches are read through the file guard. A cache file that is a FIFO or a
// symlink, or that another user owns, is ignored with a warning and written again; a build never
// hangs on one, and never serves what another user put there.
const VITE = join(REPO_ROOT, 'node_modules/vite/bin/vite.js')
/** Another user (`nobody`): the tests run as root, which may give files away. */
const NOBODY = 65534

const AGENT = `import { runTool, skills } from 'virtual:site-skills'
console.log(JSON.stringify({ description: skills[0].tools.double.description, double: await runTool('shop', 'double', { n: 4 }) }))
`
const SERVED = { description: 'Doubles n.', double: 8 }

let tmp: Awaited<ReturnType<typeof makeTempDir>>
let project: string
let cacheDir: string

interface Built extends Exited {
  served: Record<string, unknown>
  reused: [number, number]
  /** Why the skills' cache file was not used, from the DEBUG line (missing, untrusted, ...). */
  miss?: string
  output: string
}

/** A `vite build` in a new process with DEBUG=site-skills, then the built agent run. */
async function build(outDir = 'out'): Promise<Built> {
  const run = await runNode([VITE, 'build', '--ssr', 'agent.js', '--outDir', outDir], {
    cwd: project,
    env: cleanEnv({ DEBUG: 'site-skills' }),
    // Below the test's own time limit: a build that hangs is killed, and says so.
    limitMs: 40_000,
  })
  const output = run.stdout + run.stderr
  expect(run.timedOut, `the build did not exit on its own:\n${output}`).toBe(false)
  expect(run.code, output).toBe(0)
  const line = output.match(/cache: (\d+) of (\d+) skills reused from (\S+?);?(?: \(file (\w+)\))?;/)
  expect(line, output).not.toBeNull()
  const agent = await runNode([join(project, outDir, 'agent.js')], { cwd: project })
  expect(agent.code, agent.stderr).toBe(0)
  return {
    ...run,
    output,
    served: JSON.parse(agent.stdout) as Record<string, unknown>,
    reused: [Number(line![1]), Number(line![2])],
    ...(line![4] ? { miss: line![4] } : {}),
  }
}

/** A cache written anew by a build, so that each case starts from a whole one. */
async function fresh(): Promise<void> {
  rmSync(cacheDir, { recursive: true, force: true })
  expect((await build()).served).toEqual(SERVED)
}

const skillsCache = () => join(cacheDir, readdirSync(cacheDir).find((f) => /^skills-\w+\.json$/.test(f))!)
/** The modules of the last build: the key folder it used last (each build touches its own). */
const modulesDir = () => {
  const keys = readdirSync(join(cacheDir, 'modules')).map((key) => join(cacheDir, 'modules', key))
  return keys.sort((a, b) => statSync(b).mtimeMs - statSync(a).mtimeMs)[0]!
}
const sha256 = (data: Buffer | string, encoding: 'base64' | 'hex') => createHash('sha256').update(data).digest(encoding)

/** The skills' cache file with the tool's description changed, its header made to match: a file as another user could write it. */
function poisonedSkillsCache(file: string): Buffer {
  expect(lstatSync(file).isFile()).toBe(true)
  const whole = readFileSync(file)
  const newline = whole.indexOf(0x0a)
  const body = Buffer.from(
    whole
      .subarray(newline + 1)
      .toString('utf8')
      .replaceAll('Doubles n.', 'POISONED!!'),
  )
  const header = {
    ...JSON.parse(whole.subarray(0, newline).toString('utf8')),
    length: body.length,
    sha256: sha256(body, 'base64'),
  }
  return Buffer.concat([Buffer.from(`${JSON.stringify(header)}\n`), body])
}

beforeAll(async () => {
  tmp = await makeTempDir('cache-guard-')
  project = tmp.dir
  cacheDir = join(project, 'node_modules/.cache/site-skills')
  await writeTree(project, {
    'package.json': '{ "type": "module" }\n',
    'agent.js': AGENT,
    'vite.config.js':
      "import siteSkills from 'unplugin-site-skills/vite'\nexport default { logLevel: 'warn', plugins: [siteSkills()] }\n",
    'learnings/shop/manifest.json': SHOP_MANIFEST,
    'learnings/shop/tools/double.js': 'export const double = (ctx, args) => args.n * 2\n',
  })
})
afterAll(() => tmp?.cleanup())

describe.sequential('build caches through the file guard', () => {
  it('a FIFO as the skills cache file does not hang the build: ignored with a warning, and replaced', async () => {
    await fresh()
    const file = skillsCache()
    rmSync(file)
    execFileSync('mkfifo', [file])
    const built = await build()
    expect(built.served).toEqual(SERVED)
    expect(built.reused).toEqual([0, 1])
    expect(built.miss).toBe('untrusted')
    expect(built.output).toContain(
      `warning cache-ignored  the build cache file "${join('node_modules/.cache/site-skills', file.slice(cacheDir.length + 1))}" is a named pipe (FIFO), not a regular file: it was ignored, and is written again`,
    )
    expect(lstatSync(file).isFile()).toBe(true)
    const after = await build()
    expect(after.reused).toEqual([1, 1])
    expect(after.output).not.toContain('cache-ignored')
  })

  it('a skills cache file another user owns is not trusted, even when whole: what it holds is not served', async () => {
    await fresh()
    const file = skillsCache()
    writeFileSync(file, poisonedSkillsCache(file))
    chownSync(file, NOBODY, NOBODY)
    const built = await build()
    expect(built.served).toEqual(SERVED)
    expect(built.reused).toEqual([0, 1])
    expect(built.output).toContain(`belongs to another user (uid ${NOBODY}), so it is not trusted: it was ignored`)
    expect(lstatSync(file).uid).toBe(process.getuid!())
  })

  it('a skills cache file that is a symlink is replaced, never written through', async () => {
    await fresh()
    const file = skillsCache()
    const outside = join(project, 'outside.json')
    writeFileSync(outside, 'OUTSIDE\n')
    rmSync(file)
    symlinkSync(outside, file)
    const built = await build()
    expect(built.served).toEqual(SERVED)
    expect(built.output).toContain('is a symlink, not a regular file: it was ignored')
    expect(readFileSync(outside, 'utf8')).toBe('OUTSIDE\n')
    expect(lstatSync(file).isFile()).toBe(true)
  })

  it('a FIFO in the output module cache does not hang the build: the modules are generated again, with a warning', async () => {
    await fresh()
    expect((await build()).reused).toEqual([1, 1])
    const dir = modulesDir()
    const module = join(dir, readdirSync(dir).find((f) => f.endsWith('.js'))!)
    rmSync(module)
    execFileSync('mkfifo', [module])
    const built = await build()
    expect(built.served).toEqual(SERVED)
    expect(built.output).toContain('warning cache-ignored')
    expect(built.output).toContain('is a named pipe (FIFO), not a regular file: it was ignored, and is written again')
    for (const name of readdirSync(modulesDir())) expect(lstatSync(join(modulesDir(), name)).isFile()).toBe(true)
  })

  it('a module of the output cache that another user owns is not served, even with a matching digest', async () => {
    await fresh()
    expect((await build()).reused).toEqual([1, 1])
    const dir = modulesDir()
    const modules = readdirSync(dir).filter((f) => f.endsWith('.js') && lstatSync(join(dir, f)).isFile())
    const name = modules.find((f) => readFileSync(join(dir, f), 'utf8').includes('Doubles n.'))
    expect(name).toBeDefined()
    const path = join(dir, name!)
    expect(lstatSync(path).isFile()).toBe(true)
    const text = readFileSync(path, 'utf8')
    const code = text.slice(text.indexOf('\n') + 1).replaceAll('Doubles n.', 'POISONED!!')
    writeFileSync(path, `${sha256(code, 'base64')}\n${code}`)
    chownSync(path, NOBODY, NOBODY)
    const built = await build()
    expect(built.served).toEqual(SERVED)
    expect(built.output).toContain(`belongs to another user (uid ${NOBODY}), so it is not trusted: it was ignored`)
  })
})
