import { type ChildProcess, spawn } from 'node:child_process'
import { existsSync } from 'node:fs'
import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js'
import { afterAll, assert, beforeAll, describe, expect, it, vi } from 'vitest'
import {
  type AuthorWorld,
  authorArgs,
  call,
  createAuthorWorld,
  digests,
  errorCode,
  LIST_PRODUCTS_V1,
  listProducts,
  textOf,
  jsonOf,
  PAGE_TITLE,
} from './author-world'
import { connectClient, stdioClient, type Watched } from './harness'
import { BIN, cleanEnv, runBin, waitForExit } from '../helpers/spawn'

const AUTHORING = ['site_skills_snapshot', 'site_skills_write_tool', 'site_skills_test', 'site_skills_write_note']
const SITE = 'corner-shop-test'

let world: AuthorWorld
const opened: Watched[] = []

async function server(args: string[]) {
  const mcp = await stdioClient(args)
  opened.push(mcp)
  return mcp
}

/** A client whose tab is the shop, with the skill made from it (fixtures/home.html). */
async function onShop(mcp: Watched) {
  await call(mcp, 'site_skills_navigate', { url: world.url('corner-shop.test') })
  const snapped = await call(mcp, 'site_skills_snapshot', { name: 'home' })
  expect(snapped.isError, textOf(snapped)).toBeFalsy()
}

beforeAll(async () => {
  world = await createAuthorWorld()
})

afterAll(async () => {
  for (const mcp of opened) await mcp.client.close().catch(() => undefined)
  await world?.close()
})

describe('site-skills mcp without --allow-write: read-only', () => {
  it('lists no authoring tool and refuses each one, writing nothing', async () => {
    const before = await digests(world.dir)
    const mcp = await server(authorArgs(world))
    const { tools } = await mcp.client.listTools()
    expect(tools.map((t) => t.name).filter((n) => AUTHORING.includes(n))).toEqual([])
    await call(mcp, 'site_skills_navigate', { url: world.url('corner-shop.test') })
    for (const name of AUTHORING) {
      const refused = await call(mcp, name, { site: SITE, name: 'home', file: 'a.md', text: 'x' })
      expect(refused.isError).toBe(true)
      expect(errorCode(refused)).toBe('read-only')
      expect(textOf(refused)).toContain('start it with --allow-write DIR')
    }
    expect(await digests(world.dir)).toEqual(before)
    await mcp.client.close()
  })

  it('exits 2 with one clear line when --allow-write names a folder that is not a root', async () => {
    const exited = await runBin(
      [
        'mcp',
        '--allow-write',
        world.readOnly,
        '--root',
        world.dir,
        '--tools',
        'all',
        '--cdp',
        `127.0.0.1:${world.browser.port}`,
      ],
      { cwd: world.dir, limitMs: 20_000 },
    )
    expect(exited.timedOut).toBe(false)
    expect(exited.code).toBe(2)
    expect(exited.stderr).toContain(`--allow-write ${world.readOnly} is not one of the roots`)
  })
})

describe('site-skills mcp --allow-write DIR', () => {
  let mcp: Watched
  beforeAll(async () => {
    mcp = await server(['--allow-write', world.dir, ...authorArgs(world)])
    await onShop(mcp)
  })

  it('lists the four authoring tools', async () => {
    const { tools } = await mcp.client.listTools()
    expect(tools.map((t) => t.name).filter((n) => AUTHORING.includes(n))).toEqual(AUTHORING)
  })

  it('writes a Node tool: an ES module exporting the callable, run on its example and then for the tab', async () => {
    const kept = await call(mcp, 'site_skills_write_tool', {
      site: SITE,
      tool: 'shout',
      kind: 'node',
      code: 'export function shout(ctx, args) {\n  return { text: args.text.toUpperCase(), url: ctx.url ?? null }\n}\n',
      description: 'Upper-cases a text.',
      args: { text: { type: 'string', required: true, description: 'The text.' } },
      returns: {
        type: 'object',
        description: 'The text, upper-cased.',
        properties: { text: { type: 'string', required: true, description: 'Upper case.' } },
      },
      example: { name: 'hi', args: { text: 'hi' }, expect: { text: 'HI' } },
    })
    expect(jsonOf(kept).kept, textOf(kept)).toBe(true)
    expect(jsonOf(kept).runs.map((r) => [r.on, r.status])).toEqual([
      ['fixture', 'pass'],
      ['live', 'pass'],
    ])
    const manifest = JSON.parse(await readFile(join(world.dir, SITE, 'manifest.json'), 'utf8'))
    expect(manifest.nodeTools.shout).toMatchObject({ path: 'tools/shout.js', callable: 'shout' })
    const ran = await call(mcp, `${SITE}__shout`, { text: 'ok' })
    expect(ran.structuredContent).toEqual({ text: 'OK', url: world.url('corner-shop.test') })
  })

  it('refuses a write outside DIR: a skill of another root, a note path that leaves the folder', async () => {
    const before = { dir: await digests(world.dir), readOnly: await digests(world.readOnly) }
    const other = await call(mcp, 'site_skills_write_tool', { ...PAGE_TITLE, site: 'other' })
    expect(other.isError).toBe(true)
    expect(errorCode(other)).toBe('read-only')
    expect(textOf(other)).toContain(`other is in ${world.readOnly}, which this server may not write`)
    const leaving = await call(mcp, 'site_skills_write_note', { site: SITE, file: '../../../escape.md', text: 'x' })
    expect(leaving.isError).toBe(true)
    expect(errorCode(leaving)).toBe('path-escape')
    expect(existsSync(join(world.dir, '..', 'escape.md'))).toBe(false)
    const outside = await call(mcp, 'site_skills_write_note', { site: '../shared', file: 'a.md', text: 'x' })
    expect(errorCode(outside)).toBe('invalid-args')
    expect({ dir: await digests(world.dir), readOnly: await digests(world.readOnly) }).toEqual(before)
  })

  it('leaves the root byte for byte as it was when a write fails validation or its example', async () => {
    const before = await digests(world.dir)
    const invalid = await call(mcp, 'site_skills_write_tool', {
      ...PAGE_TITLE,
      returns: { type: 'list', description: 'Not a type.' },
    })
    expect(invalid.isError).toBe(true)
    const shown = jsonOf(invalid).diagnostics.filter((d) => d.severity === 'error')
    expect(shown.length).toBeGreaterThan(0)
    for (const d of shown) {
      expect(d.at).toMatch(new RegExp(`^${SITE}/manifest\\.json:\\d+:\\d+$`))
      expect(d.hint).toEqual(expect.any(String))
    }
    expect(await digests(world.dir)).toEqual(before)

    const mismatch = await call(mcp, 'site_skills_write_tool', {
      ...PAGE_TITLE,
      example: { name: 'home', args: {}, expect: { title: 'Another Shop' } },
    })
    expect(jsonOf(mismatch)).toMatchObject({ kept: false, diagnostics: [] })
    expect(jsonOf(mismatch).runs).toEqual([
      expect.objectContaining({ on: 'fixture', status: 'fail', kind: 'expect-mismatch' }),
    ])
    expect(await digests(world.dir)).toEqual(before)

    const throws = await call(mcp, 'site_skills_write_tool', {
      ...PAGE_TITLE,
      code: 'async function () {\n  return { title: document.querySelector("#none").textContent }\n}\n',
    })
    const run = jsonOf(throws).runs[0]!
    expect(run).toMatchObject({ on: 'fixture', status: 'fail', kind: 'tool-error' })
    expect(run.message).toMatch(new RegExp(`${SITE}/browser-tools/page-title\\.js:2:\\d+`))
    expect(await digests(world.dir)).toEqual(before)
  })
})

describe('a written tool is served at once in every mode, announced as the mode says', () => {
  it('--tools page: a tools/list_changed, then the tab lists it', async () => {
    const mcp = await server(['--allow-write', world.dir, ...authorArgs(world).slice(0, -2), '--tools', 'page'])
    await onShop(mcp)
    const changed = mcp.nextToolsChange()
    const kept = await call(mcp, 'site_skills_write_tool', { ...PAGE_TITLE, tool: 'title_in_page' })
    expect(jsonOf(kept).kept, textOf(kept)).toBe(true)
    await changed
    expect((await mcp.client.listTools()).tools.map((t) => t.name)).toContain(`${SITE}__title_in_page`)
    await mcp.client.close()
  })

  it('--tools search: the list stays as it was; site_skills_find_tools finds the tool and site_skills_call runs it', async () => {
    const mcp = await server(['--allow-write', world.dir, ...authorArgs(world).slice(0, -2), '--tools', 'search'])
    await onShop(mcp)
    const listed = (await mcp.client.listTools()).tools.map((t) => t.name)
    const kept = await call(mcp, 'site_skills_write_tool', { ...PAGE_TITLE, tool: 'title_in_search' })
    expect(jsonOf(kept).kept, textOf(kept)).toBe(true)
    const found = await call(mcp, 'site_skills_find_tools', { query: 'title' })
    expect(jsonOf(found).tools.map((t) => t.name)).toContain(`${SITE}__title_in_search`)
    const ran = await call(mcp, 'site_skills_call', { name: `${SITE}__title_in_search` })
    expect(ran.structuredContent).toEqual({ title: 'Corner Shop' })
    expect((await mcp.client.listTools()).tools.map((t) => t.name)).toEqual(listed)
    expect(mcp.toolChanges()).toBe(0)
    await mcp.client.close()
  })
})

describe('two clients writing to one skill at once', () => {
  let child: ChildProcess
  afterAll(() => {
    if (child?.exitCode === null) child.kill('SIGKILL')
  })

  it('writes one after the other: both tools are kept, neither manifest entry lost', async () => {
    const args = [BIN, 'mcp', '--http', '0', '--allow-write', world.dir, ...authorArgs(world)]
    child = spawn(process.execPath, args, { env: cleanEnv(), stdio: ['ignore', 'pipe', 'pipe'] })
    let stderr = ''
    child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()))
    const exited = waitForExit(child, 120_000)
    const listening = await vi.waitFor(
      () => /listening on (\S+)/.exec(stderr)?.[1] ?? assert.fail(`no "listening on" yet: ${stderr}`),
      { timeout: 20_000 },
    )
    const url = new URL(listening)
    const [a, b] = await Promise.all([1, 2].map(() => connectClient(new StreamableHTTPClientTransport(url))))
    await onShop(a!)
    await call(b!, 'site_skills_navigate', { url: world.url('corner-shop.test') })
    const [one, two] = await Promise.all([
      call(a!, 'site_skills_write_tool', listProducts(SITE, LIST_PRODUCTS_V1, { name: 'home' })),
      call(b!, 'site_skills_write_tool', { ...PAGE_TITLE, tool: 'title_at_once' }),
    ])
    expect(jsonOf(one)?.kept, textOf(one)).toBe(true)
    expect(jsonOf(two)?.kept, textOf(two)).toBe(true)
    const manifest = JSON.parse(await readFile(join(world.dir, SITE, 'manifest.json'), 'utf8'))
    expect(Object.keys(manifest.browserTools)).toEqual(expect.arrayContaining(['list_products', 'title_at_once']))
    for (const client of [a!, b!]) await client.client.close()
    // It exits on SIGTERM, cleanly: a tab closing during the shutdown once left tabs.close()
    // pending (a connection closed twice, see closeOnce) and the process exited 1 "unfinished".
    child.kill('SIGTERM')
    const end = await exited
    expect(end.timedOut).toBe(false)
    expect(end.code, end.stderr).toBe(0)
  })
})
