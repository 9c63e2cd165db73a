import type { IncomingMessage, ServerResponse } from 'node:http'
import { toNodeHandler } from '@modelcontextprotocol/node'
import {
  classifyInboundRequest,
  createMcpHandler,
  type Server,
  type ServerNotifier,
} from '@modelcontextprotocol/server'

/**
 * The MCP 2026-07-28 side of the HTTP endpoint (stateless: no session, the protocol version and the
 * client's capabilities in each request's `_meta`): each request is served by a server instance of
 * its own, from the same definition of tools, resources and prompts as a 2025-era session.
 */
export interface ModernEndpoint {
  /** Whether a request is of the 2026-07-28 revision (else it is a 2025-era one, for the sessions). */
  claims: (req: IncomingMessage, body: unknown) => boolean
  handle: (req: IncomingMessage, res: ServerResponse, body: unknown) => Promise<void>
  /** Tells the clients listening (`subscriptions/listen`) that a list changed. */
  notify: ServerNotifier
  close: () => Promise<void>
}

/** The headers the classification reads (a repeated one is not one value: left out). */
function headers(req: IncomingMessage) {
  const one = (name: string) => {
    const value = req.headers[name]
    return typeof value === 'string' ? value : undefined
  }
  const protocolVersionHeader = one('mcp-protocol-version')
  const mcpMethodHeader = one('mcp-method')
  const mcpNameHeader = one('mcp-name')
  return {
    ...(protocolVersionHeader === undefined ? {} : { protocolVersionHeader }),
    ...(mcpMethodHeader === undefined ? {} : { mcpMethodHeader }),
    ...(mcpNameHeader === undefined ? {} : { mcpNameHeader }),
  }
}

/** The 2026-07-28 endpoint over `instance`, which makes the server of one request. */
export function modernEndpoint(instance: () => Server, onerror: (error: Error) => void): ModernEndpoint {
  const handler = createMcpHandler(() => instance(), { legacy: 'reject', onerror })
  const serve = toNodeHandler(handler, { onerror })
  return {
    // The SDK's own classification (what createMcpHandler decides with), so the two never disagree: a
    // request is of 2026-07-28 when it claims the revision in its `_meta` or its MCP-Protocol-Version.
    claims: (req, body) =>
      classifyInboundRequest({
        httpMethod: req.method ?? 'GET',
        body,
        ...headers(req),
      }).kind !== 'legacy',
    handle: (req, res, body) => serve(req, res, body),
    notify: handler.notify,
    close: () => handler.close(),
  }
}
