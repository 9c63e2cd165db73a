import type { Plugin } from 'vite'

export type HookFn = (this: unknown, ...args: unknown[]) => Promise<unknown>

/** Replaces a hook's function, whether the hook is a function or an object with a `handler` (and a filter). */
export function wrapHook(plugin: Plugin, name: 'buildStart' | 'load', wrap: (fn: HookFn) => HookFn): void {
  const hook = plugin[name] as unknown
  if (typeof hook === 'function') plugin[name] = wrap(hook as HookFn) as never
  else if (hook && typeof hook === 'object' && 'handler' in hook)
    plugin[name] = { ...hook, handler: wrap((hook as { handler: HookFn }).handler) } as never
  else throw new Error(`the plugin has no ${name} hook to time`)
}
