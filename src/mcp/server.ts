import { createHash } from 'node:crypto'
import { Server } from '@modelcontextprotocol/sdk/server/index.js'
import {
  CallToolRequestSchema,
  ErrorCode,
  GetPromptRequestSchema,
  ListPromptsRequestSchema,
  ListResourcesRequestSchema,
  ListToolsRequestSchema,
  McpError,
  ReadResourceRequestSchema,
} from '@modelcontextprotocol/sdk/types.js'
import { isSiteToolError } from '../../runtime/index'
import { packageVersion } from '../package/version'
import type { McpClient } from './host'

const INSTRUCTIONS =
  'Site skills: tools that know a website, run in a browser tab. site_skills_tabs lists your tabs (each with an id ' +
  'to pass as `tab`; other clients never see them), site_skills_navigate opens a URL. A site tool runs only on a ' +
  'page of its skill. When site_skills_find_tools is listed, it gives the tools of a page and site_skills_call ' +
  'runs one. The site_context prompt and the site-skills:// resources hold the notes of the skills.'

/** Tools per `tools/list` page. */
export const PAGE_SIZE = 100

/** A thrown lookup failure as a JSON-RPC error the client can show (InvalidParams: an unknown URI or name). */
async function asMcp<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work()
  } catch (error) {
    if (isSiteToolError(error)) throw new McpError(ErrorCode.InvalidParams, `${error.code}: ${error.message}`)
    throw error
  }
}

/**
 * One page of a list. The cursor holds the offset and a digest of the whole list, so that it
 * needs no state on the server and a list that changed meanwhile is noticed.
 */
export function pageOf<T>(items: readonly T[], cursor: string | undefined): { page: T[]; nextCursor?: string } {
  const digest = createHash('sha256').update(JSON.stringify(items)).digest('base64url').slice(0, 16)
  let offset = 0
  if (cursor !== undefined) {
    const [at, of] = Buffer.from(cursor, 'base64url').toString('utf8').split(':')
    offset = Number(at)
    if (of !== digest || !Number.isInteger(offset) || offset < 0 || offset > items.length)
      throw new McpError(
        ErrorCode.InvalidParams,
        'the list changed since this cursor was given: list again from the start',
      )
  }
  const end = offset + PAGE_SIZE
  const page = items.slice(offset, end)
  return end < items.length ? { page, nextCursor: Buffer.from(`${end}:${digest}`).toString('base64url') } : { page }
}

/** One MCP server (one per client connection) over that client of the shared host. */
export function createMcpServer(client: McpClient): Server {
  const server = new Server(
    { name: 'site-skills', title: 'Site skills of the browser', version: packageVersion() },
    {
      capabilities: {
        tools: { listChanged: true },
        resources: { listChanged: true },
        prompts: { listChanged: false },
        logging: {},
      },
      instructions: INSTRUCTIONS,
    },
  )
  server.setRequestHandler(ListToolsRequestSchema, async (request) => {
    const { page, nextCursor } = pageOf(await client.listTools(), request.params?.cursor)
    return { tools: page, ...(nextCursor ? { nextCursor } : {}) }
  })
  server.setRequestHandler(CallToolRequestSchema, (request, extra) =>
    client.callTool(request.params.name, request.params.arguments, extra.signal),
  )
  server.setRequestHandler(ListResourcesRequestSchema, async (request) => {
    const { page, nextCursor } = pageOf(await client.listResources(), request.params?.cursor)
    return { resources: page, ...(nextCursor ? { nextCursor } : {}) }
  })
  server.setRequestHandler(ReadResourceRequestSchema, (request) => asMcp(() => client.readResource(request.params.uri)))
  server.setRequestHandler(ListPromptsRequestSchema, async () => ({ prompts: client.prompts }))
  server.setRequestHandler(GetPromptRequestSchema, (request) =>
    asMcp(() => client.getPrompt(request.params.name, request.params.arguments)),
  )
  client.onChange((changes) => {
    if (changes.tools) server.sendToolListChanged().catch(() => undefined)
    if (changes.resources) server.sendResourceListChanged().catch(() => undefined)
  })
  return server
}
