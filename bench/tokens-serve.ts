import { execFileSync } from 'node:child_process'
import { existsSync } from 'node:fs'
import { mkdir, readFile } from 'node:fs/promises'
import { createServer, type Server } from 'node:https'
import type { AddressInfo } from 'node:net'
import { join } from 'node:path'
import { TMP } from './generate'

/** A saved page and the address it was saved from. */
export interface ServedPage {
  url: string
  file: string
}

/**
 * A local HTTPS server that answers a page's real URL with its saved file, and 404 to the rest.
 * Pages saved at the same URL in other years are shown one at a time.
 */
export interface PageServer {
  port: number
  /** Answers the page's URL with its file from now on. */
  show(page: ServedPage): void
  /** The Chromium flags that send the pages' hosts (and only them) to this server. */
  browserArgs: string[]
  close(): Promise<void>
}

/** A self-signed certificate for the local server, made once with openssl (Chromium ignores its errors). */
async function certificate(): Promise<{ key: Buffer; cert: Buffer }> {
  const dir = join(TMP, 'tokens-cert')
  const key = join(dir, 'key.pem')
  const cert = join(dir, 'cert.pem')
  if (!existsSync(cert)) {
    await mkdir(dir, { recursive: true })
    execFileSync(
      'openssl',
      [
        'req',
        '-x509',
        '-newkey',
        'rsa:2048',
        '-nodes',
        '-keyout',
        key,
        '-out',
        cert,
        '-days',
        '3650',
        '-subj',
        '/CN=pages',
      ],
      { stdio: 'ignore' },
    )
  }
  return { key: await readFile(key), cert: await readFile(cert) }
}

const keyOf = (host: string, path: string) => `${host}${path}`

/**
 * Serves `pages` at their real URLs on 127.0.0.1: the browser is started with
 * `--host-resolver-rules` mapping each page's host to this server (every other host fails to
 * resolve, so nothing leaves the machine) and `--ignore-certificate-errors`.
 */
export async function servePages(pages: readonly ServedPage[]): Promise<PageServer> {
  const bodies = new Map<string, string>()
  const show = (page: ServedPage) => {
    const url = new URL(page.url)
    bodies.set(keyOf(url.host, url.pathname + url.search), page.file)
  }
  const server: Server = createServer(await certificate(), (req, res) => {
    const file = bodies.get(keyOf(req.headers.host ?? '', req.url ?? ''))
    if (!file) {
      res.writeHead(404, { 'Content-Type': 'text/plain' }).end('not saved')
      return
    }
    readFile(file).then(
      (body) =>
        res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8', 'Cache-Control': 'no-store' }).end(body),
      () => res.writeHead(500).end(),
    )
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  const hosts = [...new Set(pages.map((p) => new URL(p.url).hostname))]
  const rules = [...hosts.map((host) => `MAP ${host} 127.0.0.1:${port}`), 'MAP * ~NOTFOUND', 'EXCLUDE 127.0.0.1']
  return {
    port,
    show,
    browserArgs: [`--host-resolver-rules=${rules.join(', ')}`, '--ignore-certificate-errors'],
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  }
}
