import { rm } from 'node:fs/promises'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type AuthorWorld, PAGE_TITLE, authorArgs, call, createAuthorWorld, jsonOf, textOf } from './author-world'
import { stdioClient, type Watched } from './harness'

// Issue 35: every table of the MCP server is bounded. Three grew for as long as the server ran: the
// browser contexts of its own test runs (one more hidden per example run), the output schemas it
// compiled (one more per `returns` ever served: with --allow-write, per write), and the skills it
// kept as they last compiled (one per skill id ever seen, deleted or not). With DEBUG=site-skills the
// server prints the size of each table after every tool call; this drives each past its old growth
// through the real server and reads them there.
const SITE = 'corner-shop-test'
const TOOL = `${SITE}__page_title`
const RUNS = 4

/** page_title with a returns of its own each time (`v<n>`, an optional member): a new output schema. */
const pageTitle = (n: number) => ({
  ...PAGE_TITLE,
  returns: {
    ...PAGE_TITLE.returns,
    properties: {
      ...PAGE_TITLE.returns.properties,
      [`v${n}`]: { type: 'string', description: `Version ${n} of the returns.` },
    },
  },
})

let world: AuthorWorld
let mcp: Watched & { stderr: () => string }

/** The sizes of the last `tables:` line the server printed. */
function tables(): Record<string, number> {
  const lines = [...mcp.stderr().matchAll(/^site-skills mcp: tables: (.*)$/gm)]
  return Object.fromEntries(
    (lines.at(-1)?.[1] ?? '')
      .split(', ')
      .filter(Boolean)
      .map((part) => {
        const [name, size] = part.split(' ')
        return [name!, Number(size)]
      }),
  )
}

/** The tables after one more call (a cheap one): the server prints them as each call ends. */
async function tablesNow(): Promise<Record<string, number>> {
  const before = mcp.stderr().length
  await call(mcp, 'site_skills_tabs')
  await expect.poll(() => mcp.stderr().slice(before)).toMatch(/^site-skills mcp: tables: /m)
  return tables()
}

beforeAll(async () => {
  world = await createAuthorWorld()
  mcp = await stdioClient(['--allow-write', world.dir, ...authorArgs(world)], { DEBUG: 'site-skills' })
  await call(mcp, 'site_skills_navigate', { url: world.url('corner-shop.test') })
  const snapped = await call(mcp, 'site_skills_snapshot', { name: 'home' })
  expect(snapped.isError, textOf(snapped)).toBeFalsy()
}, 120_000)

afterAll(async () => {
  await mcp?.client.close().catch(() => undefined)
  await world?.close()
})

describe.sequential('the MCP server keeps its tables bounded (DEBUG=site-skills prints them)', () => {
  it('prints every table after a call', async () => {
    expect(Object.keys(await tablesNow())).toEqual([
      'clients',
      'tabs',
      'sessions',
      'hidden',
      'leaving',
      'held',
      'contexts',
      'kept',
      'schemas',
    ])
  })

  it('compiles the output schemas of the served catalog only: writes with new returns do not add up', async () => {
    for (let n = 1; n <= RUNS; n++) {
      const kept = await call(mcp, 'site_skills_write_tool', pageTitle(n))
      expect(jsonOf(kept).kept, textOf(kept)).toBe(true)
      const ran = await call(mcp, TOOL, {})
      expect(ran.structuredContent, textOf(ran)).toEqual({ title: 'Corner Shop' })
    }
    // One schema per tool called since the last write, not one per returns ever served.
    expect((await tablesNow()).schemas).toBe(1)
  }, 180_000)

  it('drops the browser contexts of its test runs once their tabs are gone', async () => {
    for (let n = 0; n < RUNS; n++) {
      const tested = await call(mcp, 'site_skills_test', { site: SITE, live: n % 2 === 1 })
      expect(jsonOf(tested).ok, textOf(tested)).toBe(true)
    }
    await expect.poll(async () => (await tablesNow()).hidden, { timeout: 15_000 }).toBe(0)
  }, 180_000)

  it('keeps no skill whose folder is gone', async () => {
    // The shop and the read-only root's skill.
    expect((await tablesNow()).kept).toBe(2)
    await rm(join(world.dir, SITE), { recursive: true, force: true })
    await expect.poll(async () => (await tablesNow()).kept, { timeout: 15_000 }).toBe(1)
  }, 60_000)
})
