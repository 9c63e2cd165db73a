import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'

/** A page's HTML, or a handler for anything else. */
export type Route = string | ((req: IncomingMessage, res: ServerResponse) => void)

export interface TestServer {
  /** `http://127.0.0.1:PORT` */
  origin: string
  url(path: string): string
  close(): Promise<void>
}

function page(html: string, res: ServerResponse): void {
  res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' })
  res.end(html)
}

/**
 * Serves pages on 127.0.0.1 at a free port. Paths without a route get an empty page titled
 * with the path (`/a/b?x` -> "/a/b").
 */
export async function startServer(routes: Record<string, Route> = {}): Promise<TestServer> {
  const server = createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://localhost').pathname
    const route = routes[path]
    if (typeof route === 'function') route(req, res)
    else page(route ?? `<!doctype html><title>${path}</title>`, res)
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  return {
    origin,
    url: (path) => `${origin}${path}`,
    close() {
      // Without this, close() waits for the browser's keep-alive sockets to time out.
      server.closeAllConnections()
      return new Promise((resolve) => server.close(() => resolve()))
    },
  }
}
