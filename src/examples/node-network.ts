import { AsyncLocalStorage } from 'node:async_hooks'
import dgram from 'node:dgram'
import dns from 'node:dns'
import http from 'node:http'
import https from 'node:https'
import { syncBuiltinESMExports } from 'node:module'
import net from 'node:net'
import { duplexPair } from 'node:stream'

/** What a Node example may reach: the fixture's answers, by absolute URL, and nothing else. */
export interface ExampleNetwork {
  /** The example's `ctx.fetch`: what `fetch` answers too while the example runs. */
  fetch: (input: string | URL | Request, init?: RequestInit) => Promise<Response>
  /** The served answer for a request URL, or undefined (now, or once known). */
  answer(url: string): Answer | undefined | Promise<Answer | undefined>
  /** The error of a request that is refused, naming what was asked and what is served. */
  refuse(asked: string): Error
}

type Answer = { body: BodyInit; type: string }

const current = new AsyncLocalStorage<ExampleNetwork>()
let installed = false
/** The network of the whole process, under `refuseNetwork` (a sandbox's child runs nothing else). */
const everywhere: { network?: ExampleNetwork } = {}
/** The network of the code running now: its example's, else the process's. */
const active = () => current.getStore() ?? everywhere.network

/**
 * Runs `call` (a Node tool example) so that everything it starts, now or later (promises, timers,
 * callbacks), is served or refused as its `ctx.fetch` is: the global `fetch` answers the
 * fixture's URLs, `http`/`https` requests are answered from the same fixture in the process (no
 * socket), and any other way out is refused before it touches the network: every TCP or IPC
 * connection (`net`, `tls`, `http2`, undici's own clients, an `http.ClientRequest` built by hand),
 * every DNS query, every UDP send. Code outside the example (the test runner's own CDP
 * connections) is untouched.
 */
export function withoutNetwork<T>(network: ExampleNetwork, call: () => Promise<T>): Promise<T> {
  installGuard()
  return current.run(network, call)
}

/**
 * Every later call in this process, whatever its async context (an exit handler, a finalizer),
 * reaches only what `network` serves: for a process that runs nothing but one example, where code
 * that left the example's context must not find the network open.
 */
export function refuseNetwork(network: ExampleNetwork): void {
  installGuard()
  everywhere.network = network
}

function installGuard(): void {
  if (installed) return
  installed = true
  guardFetch()
  guardHttp(http, 'http:')
  guardHttp(https, 'https:')
  guardSockets()
  guardDns()
  // ES module imports of node:http, node:dns, ... see the patched functions too.
  syncBuiltinESMExports()
}

function guardFetch(): void {
  const original = globalThis.fetch
  globalThis.fetch = function fetch(input, init) {
    const network = active()
    return network ? network.fetch(input, init) : original(input, init)
  }
}

/**
 * A socket for one request, answered in the process: the request's head is read (its Host header
 * and path, under the module's protocol), then the fixture's answer is sent, or the socket fails
 * with the refusal, which the request emits as its error. Nothing leaves the process.
 */
function exampleSocket(network: ExampleNetwork, protocol: string): net.Socket {
  const [client, server] = duplexPair()
  const responder = http.createServer(async (req, res) => {
    const url = new URL(req.url ?? '/', `${protocol}//${req.headers.host ?? 'localhost'}`).href
    const answer = await network.answer(url)
    if (!answer) {
      client.destroy(network.refuse(url))
      return
    }
    const bytes = Buffer.from(await new Response(answer.body).arrayBuffer())
    res.writeHead(200, { 'Content-Type': answer.type, 'Content-Length': bytes.length })
    res.end(bytes)
  })
  responder.emit('connection', server)
  const socket = client as unknown as Record<string, unknown>
  for (const method of ['setNoDelay', 'setKeepAlive', 'setTimeout', 'ref', 'unref']) socket[method] ??= () => client
  return client as unknown as net.Socket
}

/**
 * `request` and `get` of `http` or `https`: inside an example, each request is given a socket of
 * the example's (`createConnection`, no agent, so a custom agent is bypassed too).
 */
function guardHttp(module: typeof http | typeof https, protocol: string): void {
  for (const name of ['request', 'get'] as const) {
    const original = module[name] as (...args: unknown[]) => http.ClientRequest
    module[name] = function guarded(...args: unknown[]) {
      const network = active()
      if (!network) return original.apply(module, args)
      const createConnection = () => exampleSocket(network, protocol)
      // Without an agent the request knows no default port: the protocol's, so Host omits it as usual.
      const extra = { agent: undefined, createConnection, defaultPort: protocol === 'https:' ? 443 : 80 }
      const [first, second, ...rest] = args
      if (typeof first === 'string' || first instanceof URL) {
        const options = second && typeof second === 'object' ? { ...second, ...extra } : extra
        const tail = second && typeof second === 'object' ? rest : [second, ...rest]
        return original.call(module, first, options, ...tail.filter((a) => a !== undefined))
      }
      return original.call(module, { ...(first as object), ...extra }, second, ...rest)
    } as typeof module.request
  }
}

/** Where `socket.connect(...)` was asked to go: `host:port`, or an IPC path. */
function describeConnect(args: unknown[]): string {
  // net.connect() passes its arguments normalized: one array of [options, callback].
  const [first, second] = Array.isArray(args[0]) ? (args[0] as unknown[]) : args
  if (typeof first !== 'object' || first === null)
    return `${typeof second === 'string' ? second : 'localhost'}:${first}`
  const options = first as { host?: string; port?: number | string; path?: string }
  return options.path ?? `${options.host ?? 'localhost'}:${options.port ?? ''}`
}

/** Every TCP or IPC connection made inside an example fails before it is attempted. */
function guardSockets(): void {
  const connect = net.Socket.prototype.connect
  net.Socket.prototype.connect = function guarded(this: net.Socket, ...args: unknown[]) {
    const network = active()
    if (!network) return (connect as (...a: unknown[]) => net.Socket).apply(this, args)
    const error = network.refuse(`a connection to ${describeConnect(args)}`)
    process.nextTick(() => this.destroy(error))
    return this
  } as typeof connect
  for (const name of ['send', 'connect'] as const) {
    const original = dgram.Socket.prototype[name] as (...a: unknown[]) => unknown
    ;(dgram.Socket.prototype as unknown as Record<string, unknown>)[name] = function guarded(
      this: dgram.Socket,
      ...args: unknown[]
    ) {
      const network = active()
      if (network) throw network.refuse('a UDP datagram')
      return original.apply(this, args)
    }
  }
}

const DNS_CALLS = /^(?:lookup|lookupService|resolve\w*|reverse)$/

/** Every DNS query inside an example fails (a callback gets the error; a promise rejects). */
function guardDns(): void {
  const wrap = (target: Record<string, unknown>, promises: boolean) => {
    for (const name of Object.getOwnPropertyNames(target)) {
      const original = target[name]
      if (!DNS_CALLS.test(name) || typeof original !== 'function') continue
      target[name] = function guarded(this: unknown, ...args: unknown[]) {
        const network = active()
        if (!network) return original.apply(this, args)
        const error = network.refuse(`a DNS query (${name} ${String(args[0])})`)
        if (promises) return Promise.reject(error)
        const callback = args.findLast((a) => typeof a === 'function') as ((e: Error) => void) | undefined
        if (!callback) throw error
        process.nextTick(() => callback(error))
        return undefined
      }
    }
  }
  wrap(dns as unknown as Record<string, unknown>, false)
  wrap(dns.promises as unknown as Record<string, unknown>, true)
  wrap(dns.Resolver.prototype as unknown as Record<string, unknown>, false)
  wrap(dns.promises.Resolver.prototype as unknown as Record<string, unknown>, true)
}
