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
import { packageVersion } from '../cli/version'
import type { McpHost } from './host'

const INSTRUCTIONS =
  'Tools named <site>__<tool> are the site skills of the page in the active browser tab; the list changes ' +
  'when the tab navigates (notifications/tools/list_changed). site_skills_active_tab tells which tab and skills ' +
  'are active; the site_context prompt and the site-skills:// resources hold the notes of those skills.'

/** A thrown lookup failure as a JSON-RPC error the client can show (InvalidParams: an unknown URI or name). */
async function asMcp<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work()
  } catch (error) {
    if (isSiteToolError(error)) throw new McpError(ErrorCode.InvalidParams, `${error.code}: ${error.message}`)
    throw error
  }
}

/** One MCP server (one per client connection) over the shared host. */
export function createMcpServer(host: McpHost): Server {
  const server = new Server(
    { name: 'site-skills', title: 'Site skills of the active tab', version: packageVersion() },
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
  server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: await host.listTools() }))
  server.setRequestHandler(CallToolRequestSchema, (request) =>
    host.callTool(request.params.name, request.params.arguments),
  )
  server.setRequestHandler(ListResourcesRequestSchema, async () => ({
    resources: await host.context.listResources(),
  }))
  server.setRequestHandler(ReadResourceRequestSchema, (request) =>
    asMcp(() => host.context.readResource(request.params.uri)),
  )
  server.setRequestHandler(ListPromptsRequestSchema, async () => ({ prompts: host.context.prompts }))
  server.setRequestHandler(GetPromptRequestSchema, (request) =>
    asMcp(() => host.context.getPrompt(request.params.name)),
  )
  return server
}
