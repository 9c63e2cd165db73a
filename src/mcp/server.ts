import { ProtocolError, ProtocolErrorCode, ResourceNotFoundError, Server } from '@modelcontextprotocol/server'
import { isSiteToolError } from '../../runtime/index'
import { packageVersion } from '../own/version'
import type { McpClient } from './host'
import type { AgentSkills } from './agent-skills/resources'
import { pageOf } from './page'
import { checkParams } from './params'

const INSTRUCTIONS =
  'Site skills: tools that know a website, run in a browser tab. site_skills_tabs lists your tabs (each with an id ' +
  'to pass as `tab`; other clients never see them), site_skills_navigate opens a URL. A site tool runs only on a ' +
  'page of its skill. When site_skills_find_tools is listed, it gives the tools of a page and site_skills_call ' +
  'runs one. The site_context prompt and the site-skills:// resources hold the notes of the skills; skill:// ' +
  'resources hold each skill as an Agent Skill.'

/**
 * How long a 2026-07-28 client may reuse a list (`ttlMs`): a list changes only when the skills change
 * on disk (or, with `--tools page`, the tab), which the list_changed notices announce.
 */
const LIST_TTL_MS = 5000

/** A lookup that failed on the client's input (an unknown URI or prompt) as InvalidParams, with a short message. */
async function asMcp<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work()
  } catch (error) {
    if (isSiteToolError(error)) throw new ProtocolError(ProtocolErrorCode.InvalidParams, error.message)
    throw error
  }
}

/** An unknown site-skills:// URI: the resource is not found (undefined); other failures stay what they are. */
function notFound(error: unknown): undefined {
  if (isSiteToolError(error) && error.code === 'skill-not-found') return undefined
  throw error
}

/** A list's page as a result: the items under `key`, the cursor, and the cache hint of the 2026-07-28 revision. */
function listResult<K extends string, T>(key: K, items: readonly T[], cursor: string | undefined) {
  const { page, nextCursor } = pageOf(items, cursor)
  return { [key]: page, ...(nextCursor ? { nextCursor } : {}) } as { [P in K]: T[] } & { nextCursor?: string }
}

type Handler = Parameters<Server['_wrapHandler']>[1]

/** The SDK's server, whose every request has its params checked first (`checkParams`: short messages). */
class CheckedServer extends Server {
  protected override _wrapHandler(method: string, handler: Handler): Handler {
    const wrapped = super._wrapHandler(method, handler)
    return async (request, ctx) => {
      checkParams(method, request.params)
      return wrapped(request, ctx)
    }
  }
}

export interface ServerOptions {
  /** The skills as Agent Skills (`skill://`, the Skills extension). */
  skills?: AgentSkills
  /** This package's version, read once by a caller that makes a server per request. */
  version?: string
}

/**
 * One MCP server instance over a client of the shared host: a 2025-era session (or stdio
 * connection), or one 2026-07-28 request (or stdio connection). The same tools, resources and
 * prompts in both eras; only the client behind it differs.
 */
export function createMcpServer(client: McpClient, options: ServerOptions = {}): Server {
  const { skills, version = packageVersion() } = options
  const hint = { ttlMs: LIST_TTL_MS, cacheScope: 'private' as const }
  const server = new CheckedServer(
    { name: 'site-skills', title: 'Site skills of the browser', version },
    {
      capabilities: {
        tools: { listChanged: true },
        resources: { listChanged: true },
        prompts: { listChanged: false },
        logging: {},
      },
      instructions: INSTRUCTIONS,
      cacheHints: {
        'tools/list': hint,
        'resources/list': hint,
        'resources/templates/list': hint,
        'prompts/list': hint,
        'server/discover': hint,
      },
    },
  )
  server.setRequestHandler('tools/list', async (request) =>
    listResult('tools', await client.listTools(), request.params?.cursor),
  )
  server.setRequestHandler('tools/call', (request, ctx) =>
    client.callTool(request.params.name, request.params.arguments, ctx.mcpReq.signal),
  )
  server.setRequestHandler('resources/list', async (request) => {
    return listResult('resources', await client.listResources(), request.params?.cursor)
  })
  server.setRequestHandler('resources/templates/list', () => ({ resourceTemplates: [] }))
  server.setRequestHandler('resources/read', async (request) => {
    const { uri } = request.params
    const found = skills?.owns(uri) ? await skills.read(uri) : await client.readResource(uri).catch(notFound)
    if (!found) throw new ResourceNotFoundError(uri, `no resource at ${uri}`)
    return found
  })
  server.setRequestHandler('prompts/list', () => ({ prompts: client.prompts }))
  server.setRequestHandler('prompts/get', (request) =>
    asMcp(() => client.getPrompt(request.params.name, request.params.arguments)),
  )
  skills?.attach(server)
  client.onChange((changes) => {
    if (changes.tools) server.sendToolListChanged().catch(() => undefined)
    if (changes.resources) server.sendResourceListChanged().catch(() => undefined)
  })
  return server
}
