import { LOG_PREFIX } from '../ids'
import { type Host, type RootContext, createRootContext } from './root-context'
import { type Options, checkOptions, resolveOptions } from './options'

/**
 * The plugin's one context at a time, made from options resolved against the bundler's root once
 * the bundler tells it (Vite's `configResolved`, esbuild's `setup`, webpack's `apply`, Rollup's
 * `buildStart`), and made again if the root or the host changes.
 */
export interface PluginContexts {
  /** The context for this host: the current one while the host is the same, else a new one. */
  use: (host: Host) => RootContext
  /** The context of the last `use` (the bundler has told the plugin its root). */
  readonly current: RootContext
  /** The context of the last `use`, if any yet. */
  readonly made: RootContext | undefined
}

const sameHost = (a: Host, b: Host) =>
  a.root === b.root && a.devServer === b.devServer && (a.nodeTools ?? true) === (b.nodeTools ?? true)

/** Checks the options at once: a bad option fails when the plugin is made, before any build. */
export function createPluginContexts(options: Options = {}): PluginContexts {
  checkOptions(options)
  let made: RootContext | undefined
  return {
    use(host) {
      if (!made || !sameHost(made.host, host)) made = createRootContext(resolveOptions(options, host.root), host)
      return made
    },
    get current() {
      if (!made) throw new Error(`${LOG_PREFIX} the bundler called the plugin before it said where its root is`)
      return made
    },
    get made() {
      return made
    },
  }
}
