import { createReadStream } from 'node:fs'
import { stat } from 'node:fs/promises'
import { type Server, createServer } from 'node:http'
import { extname, join, normalize } from 'node:path'

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.json': 'application/json',
  '.js': 'text/javascript',
  '.css': 'text/css',
  '.svg': 'image/svg+xml',
}

export interface StaticServer {
  url: string
  close: () => Promise<void>
}

/** Serves a folder on 127.0.0.1 at a free port (never a fixed one: machines are shared). */
export async function serveFolder(folder: string): Promise<StaticServer> {
  const server: Server = createServer(async (req, res) => {
    const path = normalize(decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname)).replace(
      /^(\.\.[/\\])+/,
      '',
    )
    const file = join(folder, path.endsWith('/') ? `${path}index.html` : path)
    const info = await stat(file).catch(() => undefined)
    if (!file.startsWith(folder) || !info?.isFile()) {
      res.writeHead(404).end('not found')
      return
    }
    res.writeHead(200, { 'content-type': TYPES[extname(file)] ?? 'application/octet-stream' })
    createReadStream(file).pipe(res)
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as { port: number }
  return {
    url: `http://127.0.0.1:${port}/`,
    close: () => {
      server.closeAllConnections()
      return new Promise((resolve) => server.close(() => resolve()))
    },
  }
}
