/**
 * The child process of a sandboxed Node tool run (`site-skills mcp --allow-write`): started by
 * `runSandboxed` under Node's permission model, it gets its job over fd 3, checks that it cannot
 * reach what it must not, closes the ways out the permission model leaves open (signals to other
 * processes, a listening port, the network but through the server), imports the tool and calls it.
 * Nothing reaches it but that channel: no environment, no arguments.
 */
import net from 'node:net'
import os from 'node:os'
import { syncBuiltinESMExports } from 'node:module'
import { pathToFileURL } from 'node:url'
import { refuseNetwork } from '../../../examples/node-network'
import { type Message, readMessages, writeMessage } from './channel'
import { cdpProxy, proxiedFetch } from './proxies'

/** What the server sends first: the tool to run, and a path it must read and one it must not reach. */
interface Job extends Message {
  t: 'job'
  file: string
  callable: string
  args: unknown
  /** The plain part of the tool's `ctx` (url, baseUrl, host, tab). */
  ctx: Record<string, unknown>
  /** Whether `ctx.cdp` is given (a run on a tab). */
  cdp: boolean
  check: { readable: string; outside: string }
}

type Permission = { has: (scope: string, reference?: string) => boolean }

/** What is wrong with this process's sandbox, if anything: then no code of the job is loaded. */
function sandboxProblem(check: Job['check']): string | undefined {
  const permission = (process as { permission?: Permission }).permission
  if (!permission) return 'this Node.js runs without its permission model'
  if (!permission.has('fs.read', check.readable)) return `the tool's own file cannot be read (${check.readable})`
  if (permission.has('fs.read', check.outside) || permission.has('fs.write', check.outside))
    return `files outside the skill could be reached (${check.outside})`
  if (permission.has('child') || permission.has('worker')) return 'processes or threads could be started'
  return undefined
}

const denied = (what: string) =>
  Object.assign(new Error(`a sandboxed example may not ${what}`), { code: 'ERR_ACCESS_DENIED' })

/** The ways out the permission model of Node 20 leaves: signals to other processes, priorities, ports. */
function lockDown(): void {
  const own = process.pid
  const internal = process as unknown as { _kill: (pid: number, signal: number) => number }
  const rawKill = internal._kill.bind(process)
  // process.kill calls _kill; a negative errno (EPERM) makes it throw.
  internal._kill = (pid, signal) => (pid === own ? rawKill(pid, signal) : -1)
  const setPriority = os.setPriority
  os.setPriority = ((...args: [number, number] | [number]) => {
    if (args.length === 2 && args[0] !== 0 && args[0] !== own) throw denied('change the priority of another process')
    return (setPriority as (...a: unknown[]) => void)(...args)
  }) as typeof os.setPriority
  net.Server.prototype.listen = () => {
    throw denied('listen on a port')
  }
  syncBuiltinESMExports()
}

function main(): void {
  const channel = new net.Socket({ fd: 3, readable: true, writable: true })
  const waiting = new Map<number, (answer: Message) => void>()
  let asked = 0
  const cdp = cdpProxy(ask, (m) => writeMessage(channel, m), keepAlive)
  /** While an answer or an event is awaited the channel keeps the process alive; else only the tool's own work does. */
  function keepAlive(): void {
    if (waiting.size || cdp.listening()) channel.ref()
    else channel.unref()
  }
  function ask(message: Message): Promise<Message> {
    const id = ++asked
    return new Promise((resolve) => {
      waiting.set(id, (answer) => {
        waiting.delete(id)
        keepAlive()
        resolve(answer)
      })
      keepAlive()
      writeMessage(channel, { ...message, id })
    })
  }
  let finished = false
  function finish(message: Message): void {
    if (finished) return
    finished = true
    try {
      writeMessage(channel, message)
    } catch (error) {
      writeMessage(channel, { t: 'threw', name: 'TypeError', message: `the result is not JSON data: ${String(error)}` })
    }
    channel.end(() => process.exit(0))
  }

  async function run(job: Job): Promise<void> {
    const problem = sandboxProblem(job.check)
    if (problem) return finish({ t: 'refused', message: problem })
    lockDown()
    const fetch = proxiedFetch(ask, typeof job.ctx.url === 'string' ? job.ctx.url : undefined)
    refuseNetwork({
      fetch,
      async answer(url) {
        const response = await fetch(url).catch(() => undefined)
        if (!response) return undefined
        return { body: await response.arrayBuffer(), type: response.headers.get('content-type') ?? 'text/plain' }
      },
      refuse: (what) =>
        new TypeError(`fetch failed: an example reaches only what the server gives it (asked for ${what})`),
    })
    const ctx = { ...job.ctx, fetch, signal: new AbortController().signal, ...(job.cdp ? { cdp: cdp.client } : {}) }
    process.once('beforeExit', () => finish({ t: 'never-settled' }))
    // From now on only the tool's own work (and what it awaits from the server) keeps the process alive.
    keepAlive()
    try {
      const mod = (await import(pathToFileURL(job.file).href)) as Record<string, unknown>
      const fn = mod[job.callable]
      if (typeof fn !== 'function')
        return finish({
          t: 'threw',
          name: 'Error',
          message: `${JSON.stringify(job.callable)} is not an exported function`,
        })
      const value = await (fn as (ctx: unknown, args: unknown) => unknown)(ctx, job.args)
      finish({ t: 'result', value })
    } catch (error) {
      const { name, message, stack } = error instanceof Error ? error : new Error(String(error))
      finish({ t: 'threw', name, message, ...(stack ? { stack } : {}) })
    }
  }

  // The server went away (killed): nothing is left to answer to.
  channel.once('close', () => process.exit(1))
  readMessages(
    channel,
    Number.POSITIVE_INFINITY,
    (message) => {
      if (message.t === 'job') void run(message as Job)
      else if (message.t === 'cdp-event') cdp.emit(message)
      else if (typeof message.id === 'number') waiting.get(message.id)?.(message)
    },
    () => {},
  )
}

main()
