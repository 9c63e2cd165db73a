/**
 * The MCP server's heap over many calls: the server's own pieces (host, one client, the SDK server)
 * in this process with an SDK client over an in-memory transport, a real headless Chromium on the
 * test skills' pages. The client lists tools with a plain request: the SDK client's own
 * `listTools()` keeps growing (it compiles every output schema anew with ajv, which caches each),
 * and that heap is this process's too. Prints `{ calls, heapMb: { [calls]: MB } }` as JSON, the heap measured after a
 * full GC. Run with `node --expose-gc --import tsx bench/mcp-memory.ts [CALLS]`.
 */
import { Client } from '@modelcontextprotocol/client'
import { InMemoryTransport } from '@modelcontextprotocol/server'
import { createHost } from '../src/mcp/host'
import { createMcpServer } from '../src/mcp/server'
import { createWatchedSkills } from '../src/mcp/watched-skills'
import { connectTabs } from '../src/mcp/tabs'
import { loadTokenizer } from '../src/tokens/tokenizer'
import { createWorld } from '../test/mcp/harness'

const calls = Number(process.argv[2] ?? 10_000)
const marks = [1000, calls].filter((n, i, all) => n <= calls && all.indexOf(n) === i)
const gc = (globalThis as { gc?: () => void }).gc
if (!gc) throw new Error('run with node --expose-gc')

function heapMb(): number {
  gc!()
  gc!()
  return Math.round((process.memoryUsage().heapUsed / 1024 / 1024) * 10) / 10
}

const world = await createWorld()
const skills = createWatchedSkills({ roots: [world.root], filter: { allow: [], deny: ['gamma'] }, log: () => {} })
const tabs = await connectTabs({ url: world.browser.wsEndpoint })
const host = createHost(skills, tabs, { budget: 4000, tokenizer: loadTokenizer, log: () => {} })
const [clientSide, serverSide] = InMemoryTransport.createLinkedPair()
await createMcpServer(host.connect({ follows: false })).connect(serverSide)
const client = new Client({ name: 'memory', version: '1' })
await client.connect(clientSide)
const call = (name: string, args: Record<string, unknown> = {}) => client.callTool({ name, arguments: args })
await call('site_skills_navigate', { url: world.url('alpha.test') })

/** One round of the calls agents make: a browser tool, a Node tool, a failing call, the tabs, the list. */
const ROUND: (() => Promise<unknown>)[] = [
  () => call('alpha__read_title', { prefix: '' }),
  () => call('alpha__where', { tag: 'x' }),
  () => call('alpha__read_title', { prefix: 3 }),
  () => call('site_skills_tabs'),
  // As a request: the SDK client's listTools() compiles the output schemas with a new ajv entry each time.
  () => client.request({ method: 'tools/list', params: {} }),
]
const heap: Record<number, number> = {}
for (let i = 1; i <= calls; i++) {
  const result = (await ROUND[i % ROUND.length]!()) as { isError?: boolean; content?: unknown }
  if (i % ROUND.length === 1 && result.isError) throw new Error(`call ${i} failed: ${JSON.stringify(result.content)}`)
  if (marks.includes(i)) heap[i] = heapMb()
}
await client.close()
await host.close()
await world.close()
process.stdout.write(`${JSON.stringify({ calls, heapMb: heap })}\n`)
