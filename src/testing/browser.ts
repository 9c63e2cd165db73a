import { SiteToolError } from '../../runtime/index'
import { type CdpClient, command, launchBrowser, loadCri } from '../../runtime/internal'

/** A tab of its own for one example. */
interface Tab {
  client: CdpClient
  close(): Promise<void>
}

/** Where examples run: a launched headless browser, or one given with `--cdp`. */
export interface TestBrowser {
  openTab(): Promise<Tab>
  close(): Promise<void>
}

const HOST_PORT_RE = /^(\[[^\]]+\]|[^:/\s]+):(\d+)$/
const noop = () => {}

/** The browser-level WebSocket URL of `--cdp HOST:PORT` (from /json/version) or `--cdp ws://.../browser/...`. */
async function browserEndpoint(cdp: string): Promise<string> {
  if (/^wss?:\/\/[^/]+\/devtools\/browser\//.test(cdp)) return cdp
  const hostPort = HOST_PORT_RE.exec(cdp)
  if (!hostPort) throw new SiteToolError('invalid-target', `--cdp must be HOST:PORT or a browser ws:// URL: ${cdp}`)
  const where = `http://${hostPort[1]}:${hostPort[2]}/json/version`
  const response = await fetch(where).catch((cause: unknown) => {
    throw new SiteToolError('disconnected', `cannot reach ${hostPort[1]}:${hostPort[2]}`, { cause })
  })
  const info = (await response.json()) as { webSocketDebuggerUrl?: string }
  if (!info.webSocketDebuggerUrl) throw new SiteToolError('disconnected', `${where} names no browser endpoint`)
  return info.webSocketDebuggerUrl
}

/** Opens tabs through a browser-level connection; each tab gets its own page connection. */
async function connectBrowser(endpoint: string, onClose: () => Promise<void>): Promise<TestBrowser> {
  const cri = await loadCri()
  const browser = await cri({ target: endpoint, local: true })
  const base = endpoint.replace(/\/devtools\/browser\/.*$/, '')
  return {
    async openTab() {
      const { targetId } = await command(browser, 'Target.createTarget', { url: 'about:blank' })
      const client = await cri({ target: `${base}/devtools/page/${targetId}`, local: true })
      return {
        client,
        close: async () => {
          await client.close().catch(noop)
          await command(browser, 'Target.closeTarget', { targetId }).catch(noop)
        },
      }
    },
    async close() {
      await browser.close().catch(noop)
      await onClose()
    },
  }
}

/** The browser of `--cdp`, or a headless one launched for the run (closed by `close`). */
export async function openTestBrowser(cdp?: string): Promise<TestBrowser> {
  if (cdp) return connectBrowser(await browserEndpoint(cdp), async () => {})
  const launched = await launchBrowser()
  try {
    return await connectBrowser(launched.wsEndpoint, () => launched.close())
  } catch (error) {
    await launched.close()
    throw error
  }
}
