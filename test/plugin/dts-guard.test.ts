import { execFileSync } from 'node:child_process'
import { lstatSync, readFileSync, readlinkSync, rmSync, symlinkSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { SHOP_MANIFEST } from '../helpers/shop-skill'
import { REPO_ROOT, makeTempDir, writeTree } from '../helpers/tmp'
import { cleanEnv, runNode } from '../helpers/spawn'

// Issue 35: the plugin's d.ts is written through the file guard. It is replaced whole when it
// changed; a FIFO there hung `vite build` (the write waited for a reader), and a symlink there
// had the d.ts written over whatever it led to. Now both are left alone, with a warning.
const VITE = join(REPO_ROOT, 'node_modules/vite/bin/vite.js')
const DTS = 'site-skills.d.ts'

let tmp: Awaited<ReturnType<typeof makeTempDir>>
let project: string
let outside: string

/** A `vite build` in a new process: it must exit by itself, with code 0. */
async function build(): Promise<string> {
  const run = await runNode([VITE, 'build', '--ssr', 'agent.js', '--outDir', 'out'], {
    cwd: project,
    env: cleanEnv(),
    // Below the test's own time limit: a build that hangs is killed, and says so.
    limitMs: 40_000,
  })
  const output = run.stdout + run.stderr
  expect(run.timedOut, `the build did not exit on its own:\n${output}`).toBe(false)
  expect(run.code, output).toBe(0)
  return output
}

beforeAll(async () => {
  tmp = await makeTempDir('dts-guard-')
  project = join(tmp.dir, 'project')
  outside = join(tmp.dir, 'outside.txt')
  await writeTree(tmp.dir, {
    'outside.txt': 'not the d.ts\n',
    'project/package.json': '{ "type": "module" }\n',
    'project/agent.js': "import { skills } from 'virtual:site-skills'\nconsole.log(skills.length)\n",
    'project/vite.config.js':
      "import siteSkills from 'unplugin-site-skills/vite'\n" +
      "export default { logLevel: 'warn', plugins: [siteSkills({ cache: false })] }\n",
    'project/learnings/shop/manifest.json': SHOP_MANIFEST,
    'project/learnings/shop/tools/double.js': 'export const double = (ctx, args) => args.n * 2\n',
  })
})
afterAll(() => tmp?.cleanup())

describe.sequential("the plugin's d.ts through the file guard", () => {
  it('is written as a regular file when nothing is in the way', async () => {
    rmSync(join(project, DTS), { force: true })
    expect(await build()).not.toContain('dts-unwritten')
    expect(lstatSync(join(project, DTS)).isFile()).toBe(true)
    expect(readFileSync(join(project, DTS), 'utf8')).toContain('double')
  })

  it('a FIFO there does not hang the build: it is left alone, with the warning dts-unwritten', async () => {
    rmSync(join(project, DTS), { force: true })
    execFileSync('mkfifo', [join(project, DTS)])
    const output = await build()
    expect(output).toContain(
      `${DTS}:1:1  warning dts-unwritten  ${DTS} is a named pipe (FIFO), not a regular file: nothing was written`,
    )
    expect(lstatSync(join(project, DTS)).isFIFO()).toBe(true)
  })

  it('a symlink there to a file outside the project: the file is not written, with the warning', async () => {
    rmSync(join(project, DTS), { force: true })
    symlinkSync(outside, join(project, DTS))
    const output = await build()
    expect(output).toContain(`warning dts-unwritten  ${DTS} is a symlink: nothing was written`)
    expect(readFileSync(outside, 'utf8')).toBe('not the d.ts\n')
    expect(readlinkSync(join(project, DTS))).toBe(outside)
  })

  it('a dangling symlink there: nothing is made where it points', async () => {
    rmSync(join(project, DTS), { force: true })
    const target = join(tmp.dir, 'made-by-the-build.d.ts')
    symlinkSync(target, join(project, DTS))
    expect(await build()).toContain(`warning dts-unwritten  ${DTS} is a symlink: nothing was written`)
    expect(lstatSync(target, { throwIfNoEntry: false })).toBeUndefined()
  })
})
