import { appendFile } from 'node:fs/promises'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createRecord, writeRecord } from '../../src/verification/record'
import { createWorld, stdioClient, worldArgs, type World } from './harness'

// The skill's verification record as an MCP resource beside its notes (stdio, the default mode).
let world: World
let mcp: Awaited<ReturnType<typeof stdioClient>>
const URI = 'site-skills://beta/verification.json'

beforeAll(async () => {
  world = await createWorld()
  const dir = join(world.root, 'beta')
  const results = [{ siteId: 'beta', tool: 'heading', example: 'front', status: 'pass' as const }]
  const record = await createRecord({
    siteId: 'beta',
    dir,
    results,
    live: false,
    package: { name: 'unplugin-site-skills', version: '1.2.3' },
    date: new Date('2026-11-30T08:15:00Z'),
  })
  await writeRecord(dir, record)
  mcp = await stdioClient(worldArgs(world))
})

afterAll(async () => {
  await mcp?.client.close()
  await world?.close()
})

const readRecord = async () => {
  const { contents } = await mcp.client.readResource({ uri: URI })
  return JSON.parse((contents[0] as { text: string }).text)
}

describe('site-skills mcp: verification records', () => {
  it('lists the record as a resource of its skill and serves it with whether it still holds', async () => {
    const { resources } = await mcp.client.listResources()
    expect(resources.find((r) => r.uri === URI)).toMatchObject({
      name: 'beta/verification.json',
      title: 'Beta: verified 2026-11-30 (1 passed, 0 failed)',
      mimeType: 'application/json',
    })
    expect(resources.some((r) => r.uri === 'site-skills://alpha/verification.json')).toBe(false)
    expect(await readRecord()).toMatchObject({
      current: true,
      siteId: 'beta',
      date: '2026-11-30T08:15:00.000Z',
      package: { version: '1.2.3' },
      examples: [{ tool: 'heading', example: 'front', status: 'pass' }],
    })
    await appendFile(join(world.root, 'beta/browser-tools/heading.js'), '\n')
    expect((await readRecord()).current).toBe(false)
  })
})
