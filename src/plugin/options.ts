import { isAbsolute, resolve } from 'node:path'
import { type Compat, parseCompat } from '../compiler/compat'
import { DEFAULT_DTS, DEFAULT_ROOT, LOG_PREFIX } from '../ids'
import { expandHome } from '../compiler/paths'
import { resolveRoots } from '../compiler/roots'

/** Options of the plugin (all bundlers). */
export interface Options {
  /**
   * Learnings roots: folders of skill folders, or workspaces holding `learnings/`. Relative paths
   * resolve against the bundler's root (Vite `root`, webpack `context`, else the working directory).
   * @default 'learnings'
   */
  roots?: string | string[]
  /**
   * Where to write the TypeScript declarations of `virtual:site-skills` (relative to the bundler's
   * root), or `false` to write none.
   * @default 'site-skills.d.ts'
   */
  dts?: string | false
  /** `'ego-lite'` also rejects what the original ego-lite runtime cannot load. */
  compat?: Compat
  /**
   * Minify browser tools.
   * @default true
   */
  minify?: boolean
  /**
   * Include Node tools in the generated module. By default they are left out of browser builds
   * (Vite client environment, esbuild `platform: 'browser'`, webpack web targets).
   */
  nodeTools?: boolean
}

export interface ResolvedOptions {
  root: string
  roots: readonly string[]
  dts: string | false
  compat?: Compat
  minify: boolean
  nodeTools?: boolean
}

const DEFAULTS = { roots: [DEFAULT_ROOT], dts: DEFAULT_DTS, minify: true } as const

function absolute(path: string, root: string): string {
  const expanded = expandHome(path)
  return isAbsolute(expanded) ? expanded : resolve(root, expanded)
}

export function resolveOptions(options: Options = {}, root = process.cwd()): ResolvedOptions {
  const roots =
    options.roots === undefined ? [...DEFAULTS.roots] : Array.isArray(options.roots) ? options.roots : [options.roots]
  if (roots.length === 0) throw new Error(`${LOG_PREFIX} \`roots\` must name at least one folder`)
  if (options.compat !== undefined && !parseCompat(options.compat))
    throw new Error(`${LOG_PREFIX} \`compat\` accepts only 'ego-lite', not ${JSON.stringify(options.compat)}`)
  const dts = options.dts === undefined ? DEFAULTS.dts : options.dts
  return {
    root,
    // Given or `learnings`, resolved against the bundler's root; never a root named by the environment.
    roots: resolveRoots(roots, root),
    dts: dts === false ? false : absolute(dts, root),
    compat: options.compat,
    minify: options.minify ?? DEFAULTS.minify,
    nodeTools: options.nodeTools,
  }
}
