import { createServer } from 'node:http'
import type { AddressInfo, Socket } from 'node:net'
import { describe, expect, it, vi } from 'vitest'
import WebSocket from 'ws'
import { isSiteToolError } from '../../runtime/index'
import { connectLink } from '../../src/cdp/link'

/** An endpoint that answers every command, refuses upgrades while `down`, and drops its connections on command. */
async function flakyEndpoint() {
  const wss = new WebSocket.Server({ noServer: true })
  const open = new Set<WebSocket>()
  const state = { down: false, upgrades: 0 }
  const server = createServer()
  server.on('upgrade', (req, socket: Socket, head) => {
    state.upgrades++
    if (state.down) return socket.end('HTTP/1.1 502 Bad Gateway\r\nConnection: close\r\nContent-Length: 0\r\n\r\n')
    wss.handleUpgrade(req, socket, head, (ws) => {
      open.add(ws)
      ws.on('close', () => open.delete(ws))
      ws.on('message', (data) => ws.send(JSON.stringify({ id: JSON.parse(String(data)).id, result: {} })))
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return {
    url: `ws://127.0.0.1:${(server.address() as AddressInfo).port}/`,
    state,
    drop: () => {
      for (const ws of open) ws.terminate()
    },
    async close() {
      wss.close()
      server.closeAllConnections()
      await new Promise<void>((resolve) => server.close(() => resolve()))
    },
  }
}

describe('the browser link of the MCP server and site-skills test', () => {
  it('connects again after a drop, setting the new connection up before it is used', async () => {
    const endpoint = await flakyEndpoint()
    const setups: number[] = []
    const lines: string[] = []
    const link = await connectLink(
      { url: endpoint.url },
      { setup: async () => void setups.push(endpoint.state.upgrades), log: (l) => lines.push(l), waitsMs: [0, 0] },
    )
    const first = await link.socket()
    endpoint.drop()
    await vi.waitFor(() => expect(link.drops()).toBe(1))
    const second = await link.socket()
    expect(second).not.toBe(first)
    expect(await second.send('Browser.getVersion')).toEqual({})
    expect(setups).toEqual([1, 2])
    expect(lines).toEqual([`lost the connection to ${endpoint.url}; reconnecting`, `reconnected to ${endpoint.url}`])
    await link.close()
    await endpoint.close()
  })

  it('gives up with disconnected after its attempts, and starts over on the next call', async () => {
    const endpoint = await flakyEndpoint()
    const link = await connectLink({ url: endpoint.url }, { setup: async () => {}, waitsMs: [0, 0, 0] })
    endpoint.state.down = true
    endpoint.drop()
    await vi.waitFor(() => expect(link.drops()).toBe(1))
    const error = await link.socket().then(
      () => undefined,
      (e: unknown) => e,
    )
    expect(isSiteToolError(error, 'disconnected')).toBe(true)
    expect((error as Error).message).toContain('could not reconnect in 3 attempts')
    // The first upgrade, then whole rounds of three attempts (a second round when the first was
    // over before the call asked: a call after a spent round starts a new one).
    expect([4, 7]).toContain(endpoint.state.upgrades)
    endpoint.state.down = false
    expect(await (await link.socket()).send('Browser.getVersion')).toEqual({})
    await link.close()
    await endpoint.close()
  })
})
