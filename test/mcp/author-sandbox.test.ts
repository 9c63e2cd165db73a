import { spawn } from 'node:child_process'
import { existsSync } from 'node:fs'
import { writeFile } from 'node:fs/promises'
import { dirname, join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { waitForExit } from '../helpers/spawn'
import { writeTree } from '../helpers/tmp'
import {
  type AuthorWorld,
  authorArgs,
  call,
  createAuthorWorld,
  digests,
  errorCode,
  jsonOf,
  textOf,
} from './author-world'
import { stdioClient, type Watched } from './harness'

const SITE = 'corner-shop-test'
/** Two skill ids whose model tool names are the same once cut to 60 characters. */
const LONG = `collide-${'a'.repeat(60)}`
const READ_ONLY_LONG = `${LONG}-ro`
const WRITABLE_LONG = `${LONG}-rw`

let world: AuthorWorld
let base: string
let mcp: Watched
/** The stage a killed server left: its pid runs no more. */
let stale = ''

const attempt = [
  'const attempt = async (work) => {',
  '  try { await work(); return "done" } catch (error) { return error.code ?? error.message }',
  '}',
].join('\n')

/** A Node tool that tries every way out of its sandbox, at import and when called, and says what each gave. */
function probeCode(): string {
  const outside = JSON.stringify(base)
  return [
    'import { execFileSync } from "node:child_process"',
    'import { readFileSync, writeFileSync } from "node:fs"',
    'import net from "node:net"',
    attempt,
    `const atImport = await attempt(() => writeFileSync(${outside} + "/imported.txt", "x"))`,
    'export async function probe(ctx) {',
    '  return {',
    '    atImport,',
    `    write: await attempt(() => writeFileSync(${outside} + "/called.txt", "x")),`,
    `    read: await attempt(() => readFileSync(${outside} + "/secret.txt", "utf8")),`,
    '    spawn: await attempt(() => execFileSync(process.execPath, ["-e", "1"])),',
    '    signal: await attempt(() => process.kill(process.ppid, 0)),',
    `    socket: await attempt(() => new Promise((done, fail) => net.connect(${new URL(world.pages.origin).port}, "127.0.0.1").on("connect", done).on("error", fail))),`,
    `    fetch: await attempt(() => fetch(${JSON.stringify(world.pages.origin)})),`,
    '    scratch: await attempt(() => writeFileSync("made-here.txt", "x")),',
    '    cwd: process.cwd(),',
    '  }',
    '}',
  ].join('\n')
}

const text = (description: string) => ({ type: 'string', required: true, description })
const PROBE_RETURNS = {
  type: 'object',
  description: 'What each attempt gave.',
  properties: Object.fromEntries(
    ['atImport', 'write', 'read', 'spawn', 'signal', 'socket', 'fetch', 'scratch', 'cwd'].map((k) => [k, text(k)]),
  ),
}

const nodeTool = (
  tool: string,
  code: string,
  returns: object = { type: 'string', description: 'Text.' },
  expected?: object,
) => ({
  site: SITE,
  tool,
  kind: 'node',
  code,
  description: `The ${tool} tool.`,
  args: {},
  returns,
  example: { name: tool, args: {}, ...(expected ? { expect: expected } : {}) },
})

beforeAll(async () => {
  world = await createAuthorWorld()
  base = dirname(world.dir)
  await writeFile(join(base, 'secret.txt'), 'the secret')
  // A read-only skill whose model tool names collide with a writable skill's of the id WRITABLE_LONG.
  await writeTree(world.readOnly, {
    [`${READ_ONLY_LONG}/manifest.json`]: {
      id: READ_ONLY_LONG,
      name: 'Collide',
      domains: ['collide.test'],
      browserTools: {
        page_title: {
          description: 'The title.',
          path: 'browser-tools/page-title.js',
          args: {},
          returns: { type: 'string', description: 'Text.' },
        },
      },
    },
    [`${READ_ONLY_LONG}/browser-tools/page-title.js`]: 'async function () {\n  return document.title\n}\n',
  })
  // What a server killed mid-write left (its pid no longer runs), and a stage of a server still running.
  const gone = spawn(process.execPath, ['-e', ''])
  await waitForExit(gone, 10_000)
  stale = `${gone.pid}-0a1b2c`
  await writeTree(world.dir, {
    [`.site-skills-stage/${stale}/${SITE}/manifest.json`]: { id: SITE },
    [`.site-skills-stage/${process.pid}-3d4e5f/.keep`]: '',
  })
  mcp = await stdioClient(['--allow-write', world.dir, ...authorArgs(world)])
  await call(mcp, 'site_skills_navigate', { url: world.url('corner-shop.test') })
  const snapped = await call(mcp, 'site_skills_snapshot', { name: 'home' })
  expect(snapped.isError, textOf(snapped)).toBeFalsy()
})

afterAll(async () => {
  await mcp?.client.close().catch(() => undefined)
  await world?.close()
})

describe('site-skills mcp --allow-write runs the Node code a client writes in a sandbox', () => {
  it('removed the stage a killed server left in the writable root when it started, not a running one', () => {
    const area = join(world.dir, '.site-skills-stage')
    expect(existsSync(join(area, stale))).toBe(false)
    expect(existsSync(join(area, `${process.pid}-3d4e5f`))).toBe(true)
  })

  it('runs the example in a child that reaches no file, process or network outside its own', async () => {
    const denied = { atImport: 'ERR_ACCESS_DENIED', write: 'ERR_ACCESS_DENIED', read: 'ERR_ACCESS_DENIED' }
    const kept = await call(mcp, 'site_skills_write_tool', nodeTool('probe', probeCode(), PROBE_RETURNS, denied))
    expect(jsonOf(kept).kept, textOf(kept)).toBe(true)
    const runs = jsonOf(kept).runs as unknown as { on: string; status: string; result: Record<string, string> }[]
    expect(runs.map((r) => [r.on, r.status])).toEqual([
      ['fixture', 'pass'],
      ['live', 'pass'],
    ])
    for (const { result } of runs) {
      expect(result).toMatchObject({
        atImport: 'ERR_ACCESS_DENIED',
        write: 'ERR_ACCESS_DENIED',
        read: 'ERR_ACCESS_DENIED',
        spawn: 'ERR_ACCESS_DENIED',
        signal: 'EPERM',
        socket: expect.stringContaining('fetch failed'),
        fetch: expect.stringContaining('fetch failed'),
        scratch: 'done',
      })
      // It ran in a stage of the writable root, which is gone once the write is done.
      expect(String(result.cwd).startsWith(join(world.dir, '.site-skills-stage'))).toBe(true)
      expect(existsSync(String(result.cwd))).toBe(false)
    }
    // site_skills_test runs the examples of a served skill in the sandbox too (their `expect` says so).
    const tested = await call(mcp, 'site_skills_test', { site: SITE, tool: 'probe' })
    expect(jsonOf(tested), textOf(tested)).toMatchObject({ ok: true, passed: 1, failed: 0 })
    for (const file of ['imported.txt', 'called.txt']) expect(existsSync(join(base, file))).toBe(false)
  })

  it('stops an example past its memory and past its time; the server goes on', async () => {
    const before = await digests(world.dir)
    const hog = await call(mcp, 'site_skills_write_tool', {
      ...nodeTool('hog', 'export function hog() {\n  const all = []\n  for (;;) all.push(new Array(1e6).fill(1))\n}\n'),
    })
    expect(jsonOf(hog).kept).toBe(false)
    expect(jsonOf(hog).runs[0]).toMatchObject({ on: 'fixture', status: 'fail' })
    expect(jsonOf(hog).runs[0]!.message).toContain('ran out of its 128 MB of memory')
    const spin = await call(
      mcp,
      'site_skills_write_tool',
      nodeTool('spin', 'export function spin() {\n  for (;;) {}\n}\n'),
    )
    expect(jsonOf(spin).runs[0]!.message).toContain('ran past its 15000 ms and was stopped')
    expect(await digests(world.dir)).toEqual(before)
    expect((await call(mcp, 'site_skills_tabs')).isError).toBeFalsy()
  })
})

describe('site-skills mcp --allow-write validates every root together', () => {
  it('keeps no write that would break a skill of a read-only root (a model tool name collision)', async () => {
    const made = await call(mcp, 'site_skills_snapshot', { site: WRITABLE_LONG, name: 'home' })
    expect(jsonOf(made).kept, textOf(made)).toBe(true)
    const before = { dir: await digests(world.dir), readOnly: await digests(world.readOnly) }
    const collides = await call(mcp, 'site_skills_write_tool', {
      site: WRITABLE_LONG,
      tool: 'page_title',
      kind: 'browser',
      code: 'async function () {\n  return document.title\n}\n',
      description: 'The title.',
      args: {},
      returns: { type: 'string', description: 'Text.' },
      example: { name: 'home', args: {} },
    })
    expect(jsonOf(collides).kept, textOf(collides)).toBe(false)
    expect(jsonOf(collides).diagnostics).toContainEqual(
      expect.objectContaining({
        code: 'tool-name-collision',
        severity: 'error',
        site: READ_ONLY_LONG,
        root: world.readOnly,
        at: expect.stringMatching(new RegExp(`^${READ_ONLY_LONG}/manifest\\.json:\\d+:\\d+$`)),
      }),
    )
    expect({ dir: await digests(world.dir), readOnly: await digests(world.readOnly) }).toEqual(before)
  })

  it('refuses a snapshot that would make a second skill for a host a read-only skill claims, naming it', async () => {
    const before = await digests(world.dir)
    await call(mcp, 'site_skills_navigate', { url: world.url('other.test') })
    const refused = await call(mcp, 'site_skills_snapshot', { name: 'home' })
    expect(refused.isError).toBe(true)
    expect(errorCode(refused)).toBe('read-only')
    expect(textOf(refused)).toContain(`is a page of skill other (in ${world.readOnly})`)
    expect(await digests(world.dir)).toEqual(before)
  })
})
