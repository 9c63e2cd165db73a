import type { IncomingMessage, ServerResponse } from 'node:http'
import { toNodeHandler, toWebRequest } from '@modelcontextprotocol/node'
import { createMcpHandler, isLegacyRequest, type Server, type ServerNotifier } from '@modelcontextprotocol/server'

/**
 * The MCP 2026-07-28 side of the HTTP endpoint (stateless: no session, the protocol version and the
 * client's capabilities in each request's `_meta`): each request is served by a server instance of
 * its own, from the same definition of tools, resources and prompts as a 2025-era session.
 */
export interface ModernEndpoint {
  /** Whether a request is of the 2026-07-28 revision (else it is a 2025-era one, for the sessions). */
  claims: (req: IncomingMessage, body: unknown) => Promise<boolean>
  handle: (req: IncomingMessage, res: ServerResponse, body: unknown) => Promise<void>
  /** Tells the clients listening (`subscriptions/listen`) that a list changed. */
  notify: ServerNotifier
  close: () => Promise<void>
}

/** The 2026-07-28 endpoint over `instance`, which makes the server of one request. */
export function modernEndpoint(instance: () => Server, onerror: (error: Error) => void): ModernEndpoint {
  const handler = createMcpHandler(() => instance(), { legacy: 'reject', onerror })
  const serve = toNodeHandler(handler, { onerror })
  return {
    // The SDK's own classification, so the two never disagree: a request claims the revision in its `_meta`.
    claims: async (req, body) => req.method === 'POST' && !(await isLegacyRequest(await toWebRequest(req, body), body)),
    handle: (req, res, body) => serve(req, res, body),
    notify: handler.notify,
    close: () => handler.close(),
  }
}
