import { fork } from 'node:child_process'
import { join, resolve } from 'node:path'
import { type Plugin, build } from 'esbuild'
import { TMP } from './generate'

const BENCH = import.meta.dirname
/** The compiler's browser-tool bundler and its transforms of bare functions: their esbuild calls are counted. */
const BUNDLER = [
  resolve(BENCH, '../src/compiler/bundle/browser-tools.ts'),
  resolve(BENCH, '../src/compiler/bundle/expressions.ts'),
]
/** Must sit directly in bench/.tmp: the compiler finds `runtime/` relative to its own file. */
const CHILD_FILE = join(TMP, 'child.mjs')
const CHILD_TIMEOUT_MS = 10 * 60_000

/** The bundler's `esbuild` import goes to the probe, which counts the tools it is asked to compile. */
const probePlugin: Plugin = {
  name: 'bench-esbuild-probe',
  setup(b) {
    b.onResolve({ filter: /^esbuild$/ }, (args) =>
      BUNDLER.includes(args.importer) ? { path: join(BENCH, 'esbuild-probe.ts') } : undefined,
    )
  },
}

let bundled: Promise<void> | undefined

/**
 * Child processes run plain `node` on a bundle of bench/child.ts (packages left external), so no
 * TypeScript loader hooks sit in the way of imports (the original's validation imports 2,000 files).
 * Split at each task's dynamic import: a child loads only its task's code and packages (a build
 * without the plugin never loads the plugin's dependencies).
 */
export function bundleChild(): Promise<void> {
  bundled ??= build({
    entryPoints: { child: join(BENCH, 'child.ts') },
    outdir: TMP,
    chunkNames: 'child-[hash]',
    outExtension: { '.js': '.mjs' },
    splitting: true,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    packages: 'external',
    logLevel: 'error',
    plugins: [probePlugin],
  }).then(() => undefined)
  return bundled
}

/** What a child reports besides its task's result. */
export interface ChildResult<T> {
  value: T
  /** Peak resident set size of the child (KiB). */
  maxRssKb: number
  /** Peak resident set size of esbuild's service process, when one ran (KiB). */
  esbuildRssKb?: number
}

/** Runs a task of bench/child.ts in a fresh Node process and resolves with what it reports. */
export async function runChild<T>(task: string, args: object = {}, execArgv: string[] = []): Promise<ChildResult<T>> {
  await bundleChild()
  const child = fork(CHILD_FILE, [task, JSON.stringify(args)], {
    execArgv,
    stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
  })
  let output = ''
  const keep = (chunk: Buffer) => (output = (output + chunk.toString()).slice(-4000))
  child.stdout!.on('data', keep)
  child.stderr!.on('data', keep)
  let message: { ok: true; result: ChildResult<T> } | { ok: false; error: string; maxRssKb: number } | undefined
  child.on('message', (m) => (message = m as typeof message))
  const timer = setTimeout(() => child.kill('SIGKILL'), CHILD_TIMEOUT_MS)
  const code = await new Promise<number | null>((done) => child.on('exit', (c) => done(c)))
  clearTimeout(timer)
  if (message?.ok) return message.result
  const why = message ? message.error : `exited with ${code} without a result`
  throw new ChildError(`${why}${output.trim() ? `\n${output.trim()}` : ''}`, message?.maxRssKb)
}

/** A task that failed in its child, with the child's peak RSS when it reported one. */
export class ChildError extends Error {
  constructor(
    message: string,
    readonly maxRssKb?: number,
  ) {
    super(message)
  }
}
