/**
 * Stands in for `esbuild` inside the compiler's bundler when it runs in a benchmark child (see
 * spawn.ts): everything is esbuild's own, except that `build` and `transform` also count the tools
 * they are given and the wall time during which any of them was running.
 */
import * as esbuild from 'esbuild'

export * from 'esbuild'

/** Calls, tools, busy wall time, and when the first call started and the last one ended. */
export const probe = { calls: 0, tools: 0, ms: 0, firstAt: 0, lastAt: 0 }

let active = 0
let since = 0

async function track<T>(tools: number, work: () => Promise<T>): Promise<T> {
  if (active++ === 0) since = performance.now()
  probe.firstAt ||= since
  try {
    return await work()
  } finally {
    probe.calls++
    probe.tools += tools
    probe.lastAt = performance.now()
    if (--active === 0) probe.ms += probe.lastAt - since
  }
}

function countEntries(entryPoints: esbuild.BuildOptions['entryPoints']): number {
  if (!entryPoints) return 0
  return Array.isArray(entryPoints) ? entryPoints.length : Object.keys(entryPoints).length
}

export function build(options: esbuild.BuildOptions): Promise<esbuild.BuildResult> {
  return track(countEntries(options.entryPoints), () => esbuild.build(options))
}

/** A transform of many bare functions declares each as `export const <name>=(`; one alone is `export default (`. */
const DECLARED_RE = /^export const [\w$]+=\(/gm

export function transform(
  input: string | Uint8Array,
  options?: esbuild.TransformOptions,
): Promise<esbuild.TransformResult> {
  const tools = typeof input === 'string' ? Math.max(1, input.match(DECLARED_RE)?.length ?? 0) : 1
  return track(tools, () => esbuild.transform(input, options))
}

export function resetProbe(): void {
  Object.assign(probe, { calls: 0, tools: 0, ms: 0, firstAt: 0, lastAt: 0 })
}
