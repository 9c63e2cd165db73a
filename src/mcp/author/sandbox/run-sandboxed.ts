import { type ChildProcess, spawn } from 'node:child_process'
import { existsSync } from 'node:fs'
import { dirname } from 'node:path'
import type { Readable, Writable } from 'node:stream'
import { fileURLToPath } from 'node:url'
import { createAnswers } from './answers'
import { type Message, readMessages, writeMessage } from './channel'

/** How long and how large a sandboxed run may be. */
interface SandboxLimits {
  /** Killed after this long. */
  ms: number
  /** `--max-old-space-size` of the child (MB): the JavaScript heap. */
  heapMb: number
}

/** One call of a Node tool in a child process of its own. */
export interface SandboxRun {
  /** The module to import (read-only to the child, like everything of `reads`). */
  file: string
  callable: string
  args: unknown
  /** The tool's `ctx` as the server made it: `fetch` and `cdp` are answered here, the rest is copied. */
  ctx: unknown
  /** What the child may read: folders (ending in `/`) and files. */
  reads: readonly string[]
  /** The one folder the child may write (its working folder). */
  scratch: string
  /** A path the child must not reach: its check of its own sandbox. */
  outside: string
  limits: SandboxLimits
  /** Aborts the run (the child is killed). */
  signal?: AbortSignal
}

/** The largest message a child may send (a result, a request). */
const MAX_MESSAGE = 8 * 1024 * 1024
/** Where the child's script is: beside the built chunks, or in dist/ seen from src/. */
const CHILD_CANDIDATES = ['./sandbox.js', '../../../../dist/sandbox.js']
/** The plain keys of a Node tool's `ctx` that are copied to the child. */
const PLAIN_CTX = ['host', 'url', 'baseUrl', 'tab'] as const

function childScript(): string {
  for (const candidate of CHILD_CANDIDATES) {
    const path = fileURLToPath(new URL(candidate, import.meta.url))
    if (existsSync(path)) return path
  }
  throw new Error('the sandbox of examples is not built (dist/sandbox.js): run npm run build')
}

/** Node's permission model: `--permission` since Node 22.13 and 23.5, `--experimental-permission` before. */
function permissionFlag(): string {
  return process.allowedNodeEnvironmentFlags.has('--permission') ? '--permission' : '--experimental-permission'
}

/** The flags of the child: the permission model with its grants, and the heap limit. */
function sandboxFlags(run: Pick<SandboxRun, 'reads' | 'scratch' | 'limits'>, script: string): string[] {
  return [
    permissionFlag(),
    // The child's own script and the chunks it imports, then the run's grants.
    ...[`${dirname(script)}/`, ...run.reads].map((path) => `--allow-fs-read=${path}`),
    `--allow-fs-write=${run.scratch.endsWith('/') ? run.scratch : `${run.scratch}/`}`,
    `--max-old-space-size=${run.limits.heapMb}`,
    '--no-warnings',
  ]
}

/** Where a POSIX shell is, to set the child's CPU limit with `ulimit -t` (no Node API sets one). */
const SHELL = '/bin/sh'

/**
 * The command that starts the child: through the shell with a limit on its CPU time where there is
 * one, so that a child whose server was killed (and cannot kill it at its time limit) dies of its
 * own once it has spun that long; else Node itself (the child then ends only with its server).
 * The limit is twice the wall-clock one and more: V8's own threads count too.
 */
function sandboxCommand(nodeArgs: string[], ms: number, shell = existsSync(SHELL) ? SHELL : undefined) {
  if (!shell) return [process.execPath, nodeArgs] as const
  const cpuSeconds = 2 * Math.ceil(ms / 1000) + 5
  return [shell, ['-c', `ulimit -t ${cpuSeconds} && exec "$0" "$@"`, process.execPath, ...nodeArgs]] as const
}

function plainCtx(ctx: unknown): Record<string, unknown> {
  const given = (ctx ?? {}) as Record<string, unknown>
  return Object.fromEntries(PLAIN_CTX.filter((key) => given[key] !== undefined).map((key) => [key, given[key]]))
}

/** What the child said when it threw, as an Error with its stack (which names the tool's file and line). */
function thrown(message: Message): Error {
  const error = new Error(String(message.message))
  error.name = typeof message.name === 'string' ? message.name : 'Error'
  error.stack = typeof message.stack === 'string' ? message.stack : `${error.name}: ${error.message}`
  return error
}

/** Why a child that ended without an answer ended. */
function ended(child: ChildProcess, stderr: string, run: SandboxRun): Error {
  if (/heap out of memory|Allocation failed/i.test(stderr))
    return new Error(`the example ran out of its ${run.limits.heapMb} MB of memory and was stopped`)
  const how = child.signalCode ? `was killed (${child.signalCode})` : `exited with code ${child.exitCode}`
  return new Error(`the example's process ${how} before it answered${stderr ? `: ${stderr.trim().slice(0, 500)}` : ''}`)
}

/**
 * Calls a Node tool in a child process under Node's permission model: it reads only `reads`,
 * writes only `scratch`, starts no process or thread, loads no addon, reaches the network only
 * through `ctx.fetch` (answered here), and is killed past `limits.ms`, when its heap passes
 * `limits.heapMb`, or when `signal` aborts. Resolves with what the tool returned (as JSON), rejects
 * with what it threw.
 */
export function runSandboxed(run: SandboxRun): Promise<unknown> {
  const script = childScript()
  const [command, args] = sandboxCommand([...sandboxFlags(run, script), script], run.limits.ms)
  const child = spawn(command, args, {
    cwd: run.scratch,
    env: {},
    stdio: ['ignore', 'ignore', 'pipe', 'pipe'],
  })
  const err = child.stdio[2] as Readable
  const channel = child.stdio[3] as Readable & Writable
  let stderr = ''
  err.setEncoding('utf8').on('data', (chunk: string) => (stderr = (stderr + chunk).slice(-4096)))
  const stop = new AbortController()
  const answers = createAnswers(run.ctx, (m) => writeMessage(channel, m), stop.signal)
  return new Promise<unknown>((resolve, reject) => {
    let settled = false
    const settle = (error: Error | undefined, value?: unknown) => {
      if (settled) return
      settled = true
      clearTimeout(timer)
      run.signal?.removeEventListener('abort', onAbort)
      stop.abort()
      answers.close()
      child.kill('SIGKILL')
      if (error) reject(error)
      else resolve(value)
    }
    const timer = setTimeout(
      () => settle(new Error(`the example ran past its ${run.limits.ms} ms and was stopped`)),
      run.limits.ms,
    )
    const onAbort = () => settle(new Error('the call was cancelled'))
    run.signal?.addEventListener('abort', onAbort, { once: true })
    if (run.signal?.aborted) onAbort()
    child.once('error', (error) => settle(error))
    child.once('close', () => settle(ended(child, stderr, run)))
    channel.on('error', () => undefined)
    readMessages(
      channel,
      MAX_MESSAGE,
      (message) => {
        if (message.t === 'result') settle(undefined, message.value)
        else if (message.t === 'threw') settle(thrown(message))
        else if (message.t === 'never-settled') settle(new Error('returned a promise that nothing is left to settle'))
        else if (message.t === 'refused') settle(new Error(`the example was not run: ${String(message.message)}`))
        else void answers.handle(message)
      },
      () => settle(new Error(`the example sent more than ${MAX_MESSAGE / 1024 / 1024} MiB at once and was stopped`)),
    )
    const { file, callable, args, outside } = run
    const job = {
      t: 'job',
      file,
      callable,
      args,
      ctx: plainCtx(run.ctx),
      cdp: Boolean((run.ctx as { cdp?: unknown })?.cdp),
    }
    writeMessage(channel, { ...job, check: { readable: file, outside } })
  })
}
