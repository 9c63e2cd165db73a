import { appendFile, cp, mkdir, rename, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { APP, BUNDLERS, type BundlerName, runMain } from '../helpers/bundlers'
import { makeTempDir } from '../helpers/tmp'
import { type BuildEvent, type WatchSession, watchApp } from '../helpers/watch'

/** How long a watcher may take to finish the build that shows a change. */
const WAIT_MS = 15_000

/** Appended to the app's copy: runs the tool of the skill the test adds (`skill-not-found` before). */
const ADDED_EXPORT = "\nexport const added = () => runTool('added', 'hello', { name: 'watch' }).catch((e) => e.code)\n"

const EDITED_SEARCH = "export async function search(ctx, args) {\n  return ['edited', args.query]\n}\n"

const ADDED_MANIFEST = `{
  "id": "added",
  "name": "Added",
  "domains": ["added.example.net"],
  "nodeTools": {
    "hello": {
      "description": "Say hello.",
      "path": "tools/hello.js",
      "callable": "hello",
      "args": { "name": { "type": "string", "required": true, "description": "Who to greet." } },
      "returns": { "type": "string", "description": "The greeting." }
    }
  },
  "browserTools": {}
}
`
const ADDED_TOOL =
  'export const hello = async (ctx, args) => `hello, ${args.name}`\nexport const bye = async (ctx, args) => `bye, ${args.name}`\n'
/** A trailing comma after the last member (line 14, column 21). */
const BROKEN_MANIFEST = ADDED_MANIFEST.replace('"browserTools": {}', '"browserTools": {},')
const BROKEN_AT = 'learnings/added/manifest.json:14:21'
/** Valid again, and different: the tool `hello` now calls `bye`. */
const FIXED_MANIFEST = ADDED_MANIFEST.replace('"callable": "hello"', '"callable": "bye"')

let tmp: Awaited<ReturnType<typeof makeTempDir>>
beforeAll(async () => {
  tmp = await makeTempDir('watch-')
})
afterAll(() => tmp.cleanup())

interface AppState {
  main: Record<string, unknown>
  added: unknown
}

/** What the app's copy does when run: its `main()`, and the added skill's tool. */
async function runApp(entry: string): Promise<AppState> {
  const [main, added] = await Promise.all([runMain(entry), runMain(entry, 'added')])
  return { main: main as AppState['main'], added }
}

/** Throws unless a build is the one looked for. */
type Check = (event: BuildEvent) => Promise<void>

/**
 * Takes the watcher's builds until one passes `check`; resolves with the milliseconds from
 * `start` to the end of that build. A check may fail on a build that is not the last (a bundler may build twice for one
 * change, and rewrite the output while it is read): only the time limit fails the wait.
 */
async function waitForBuild(session: WatchSession, check: Check, start = performance.now()): Promise<number> {
  const seen: string[] = []
  for (let left = WAIT_MS; left > 0; left = WAIT_MS - (performance.now() - start)) {
    const event = await session.next(left).catch(() => undefined)
    if (!event) break
    const at = performance.now()
    try {
      await check(event)
      return Math.round(at - start)
    } catch (error) {
      seen.push(error instanceof Error ? error.message : String(error))
    }
  }
  throw new Error(`no build passed within ${WAIT_MS} ms; builds seen:\n${seen.join('\n---\n') || '(none)'}`)
}

/** Makes a change, then waits for the build that shows it. */
async function changeAndWait(session: WatchSession, change: () => Promise<void>, check: Check): Promise<number> {
  const start = performance.now()
  await change()
  return waitForBuild(session, check, start)
}

/** A build that succeeded, whose output behaves as `expected` says. */
const built =
  (entry: string, expected: object): Check =>
  async (event) => {
    if (!event.ok) throw new Error(event.message)
    expect(await runApp(entry)).toMatchObject(expected)
  }

const WITH_ADDED = { main: { skills: ['added', 'ext', 'workspace'] }, added: 'hello, watch' }

/** A copy of the fixture app in `dir`, whose entry also exports `added`. */
async function copyApp(dir: string): Promise<string> {
  const app = join(dir, 'app')
  await cp(APP, app, { recursive: true })
  await appendFile(join(app, 'entry.js'), ADDED_EXPORT)
  return app
}

/** Writes the skill `added` in `dir`, then moves it into the app's `learnings/` at once (no half-written skill is built). */
async function addSkill(dir: string, app: string): Promise<void> {
  const staged = join(dir, 'added')
  await mkdir(join(staged, 'tools'), { recursive: true })
  await writeFile(join(staged, 'manifest.json'), ADDED_MANIFEST)
  await writeFile(join(staged, 'tools/hello.js'), ADDED_TOOL)
  await rename(staged, join(app, 'learnings/added'))
}

describe.each(BUNDLERS)('%s in watch mode', (bundler: BundlerName) => {
  let app: string
  let session: WatchSession
  beforeAll(async () => {
    app = await copyApp(join(tmp.dir, bundler))
    session = await watchApp(bundler, app, join(tmp.dir, bundler, 'out'))
  })
  afterAll(() => session?.close())

  it('builds the app at start', async () => {
    await waitForBuild(
      session,
      built(session.entry, { main: { skills: ['ext', 'workspace'], search: ['q'] }, added: 'skill-not-found' }),
    )
  })

  it('rebuilds when a Node tool changes', async ({ annotate }) => {
    const edit = () => writeFile(join(app, 'learnings/ext/tools/search.js'), EDITED_SEARCH)
    const ms = await changeAndWait(session, edit, built(session.entry, { main: { search: ['edited', 'q'] } }))
    await annotate(`noticed in ${ms} ms`)
  })

  it('rebuilds when a skill folder is added', async ({ annotate }) => {
    const ms = await changeAndWait(
      session,
      () => addSkill(join(tmp.dir, bundler), app),
      built(session.entry, WITH_ADDED),
    )
    await annotate(`noticed in ${ms} ms`)
  })

  it('reports a broken manifest as file:line:col, keeps watching, and rebuilds once it is fixed', async ({
    annotate,
  }) => {
    const manifest = join(app, 'learnings/added/manifest.json')
    const failed: Check = async (event) => {
      expect(event.ok).toBe(false)
      expect(event.message).toContain(`${BROKEN_AT}  error manifest-parse`)
    }
    const broken = await changeAndWait(session, () => writeFile(manifest, BROKEN_MANIFEST), failed)
    const fixed = await changeAndWait(
      session,
      () => writeFile(manifest, FIXED_MANIFEST),
      built(session.entry, { ...WITH_ADDED, added: 'bye, watch' }),
    )
    await annotate(`error in ${broken} ms, fix in ${fixed} ms`)
  })
})
