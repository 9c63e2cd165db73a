import type { Plugin } from 'vite'

export type HookFn = (this: unknown, ...args: unknown[]) => Promise<unknown>

/** A hook's function, whether the hook is a function or an object with a `handler` (and a filter). */
export function handlerOf(plugin: Plugin, name: 'buildStart' | 'load' | 'resolveId'): HookFn {
  const hook = plugin[name] as unknown
  if (typeof hook === 'function') return hook as HookFn
  if (hook && typeof hook === 'object' && typeof (hook as { handler?: unknown }).handler === 'function')
    return (hook as { handler: HookFn }).handler
  throw new Error(`the plugin has no ${name} hook`)
}

/** Replaces a hook's function, keeping its filter when it has one. */
export function wrapHook(plugin: Plugin, name: 'buildStart' | 'load', wrap: (fn: HookFn) => HookFn): void {
  const hook = plugin[name] as unknown
  const handler = wrap(handlerOf(plugin, name))
  plugin[name] = (typeof hook === 'function' ? handler : { ...(hook as object), handler }) as never
}

/** Calls `seen(id, code)` with every module the plugin's load hook returns, before the bundler gets it. */
export function onLoaded(plugin: Plugin, seen: (id: string, code: string) => void): void {
  wrapHook(
    plugin,
    'load',
    (load) =>
      async function (this: unknown, ...args: unknown[]) {
        const out = await load.apply(this, args)
        if (out != null) seen(args[0] as string, typeof out === 'string' ? out : (out as { code: string }).code)
        return out
      },
  )
}

/** Time spent in the plugin's hooks over one build. */
export interface HookTimes {
  buildStart: number
  /** Wall time during which at least one load call was running (loads overlap). */
  load: number
  loads: number
  /** When the last buildStart began and ended (performance.now()). */
  buildStartAt: number
  buildStartEnd: number
}

const NO_TIMES: HookTimes = { buildStart: 0, load: 0, loads: 0, buildStartAt: 0, buildStartEnd: 0 }

/** Wraps the plugin's `buildStart` and `load` hooks to time them. */
export function timeHooks(plugin: Plugin): { plugin: Plugin; times: HookTimes; reset: () => void } {
  const times: HookTimes = { ...NO_TIMES }
  let loading = 0
  let loadingSince = 0
  wrapHook(
    plugin,
    'buildStart',
    (buildStart) =>
      async function (this: unknown, ...args: unknown[]) {
        times.buildStartAt = performance.now()
        try {
          return await buildStart.apply(this, args)
        } finally {
          times.buildStartEnd = performance.now()
          times.buildStart += times.buildStartEnd - times.buildStartAt
        }
      },
  )
  wrapHook(
    plugin,
    'load',
    (load) =>
      async function (this: unknown, ...args: unknown[]) {
        if (loading++ === 0) loadingSince = performance.now()
        try {
          return await load.apply(this, args)
        } finally {
          times.loads++
          if (--loading === 0) times.load += performance.now() - loadingSince
        }
      },
  )
  return { plugin, times, reset: () => Object.assign(times, NO_TIMES) }
}
