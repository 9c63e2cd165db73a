import type { ValidateReturns } from '../../runtime/index'
import { type Compat, parseCompat } from '../compiler/compat'
import { DEFAULT_DTS, DEFAULT_ROOT, LOG_PREFIX } from '../ids'
import { resolveUserPath } from '../compiler/fs/paths'
import { type Root, resolveRoots } from '../compiler/discover/roots'
import type { TokenBudgetOption } from '../tokens/budget'

/** Options of the plugin (all bundlers). */
export interface Options {
  /**
   * Roots: folders of skill folders, or workspaces holding `learnings/`. Relative paths
   * resolve against the bundler's root: Vite's `root`, webpack's `context`, esbuild's
   * `absWorkingDir`; Rollup and Rolldown have none, and resolve `input` and `output.dir` against
   * the working directory, so the plugin does too (`process.cwd()` when the build starts).
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
  /**
   * What a result that does not fit its tool's `returns` does in the generated module: see
   * {@link ValidateReturns}. @default 'warn'
   */
  validateReturns?: ValidateReturns
  /**
   * Token budgets where a manifest sets no `tokenBudget`: the most tokens of a tool's definition
   * (`tool`) and of a skill's tool definitions and notes together (`skill`), counted with
   * gpt-tokenizer (an optional peer: `npm i -D gpt-tokenizer`). Exceeding one is a `token-budget`
   * warning at the tool's manifest entry, an error (a failed build) with `fail: true`.
   */
  tokenBudget?: TokenBudgetOption
  /**
   * A cache that outlives the build, so that the next build in a new process takes unchanged
   * skills from it instead of validating and compiling them again: a folder (relative to the
   * bundler's root), or `false` for none. A skill is taken only when every file it read (and, for
   * ES-module browser tools, every file they import and the package.json files esbuild resolved
   * them through) has the same content, and with the same options and versions of this package,
   * esbuild and Node; a cache file that is missing, truncated or corrupt is ignored and written again.
   * @default 'node_modules/.cache/site-skills'
   */
  cache?: string | false
}

/** The options with every path absolute: made once per bundler root (`resolveOptions`). */
export interface ResolvedOptions {
  /** The bundler's root, which relative paths were resolved against. */
  root: string
  roots: readonly Root[]
  dts: string | false
  compat?: Compat
  minify: boolean
  nodeTools?: boolean
  validateReturns?: ValidateReturns
  tokenBudget?: TokenBudgetOption
  /** The cache folder, or false. */
  cache: string | false
}

/** A `tokenBudget` option that is not `{ tool?, skill?, fail? }` of positive integers and a boolean. */
function tokenBudgetProblem(option: unknown): string | undefined {
  if (option === undefined) return undefined
  if (typeof option !== 'object' || option === null || Array.isArray(option)) return 'must be { tool?, skill?, fail? }'
  for (const [key, value] of Object.entries(option)) {
    if (key === 'fail' ? typeof value !== 'boolean' : !['tool', 'skill'].includes(key))
      return `has ${key === 'fail' ? 'a fail that is not a boolean' : `unknown key ${JSON.stringify(key)}`}`
    if (key !== 'fail' && !(Number.isInteger(value) && (value as number) > 0))
      return `${key} must be a positive integer, not ${JSON.stringify(value)}`
  }
  return undefined
}

const VALIDATE_RETURNS: readonly unknown[] = ['throw', 'warn', false]

const DEFAULTS = {
  roots: [DEFAULT_ROOT],
  dts: DEFAULT_DTS,
  minify: true,
  cache: 'node_modules/.cache/site-skills',
} as const

/** The roots as given (or the default), after checking every option: bad options fail when the plugin is made. */
export function checkOptions(options: Options = {}): readonly string[] {
  const roots =
    options.roots === undefined ? [...DEFAULTS.roots] : Array.isArray(options.roots) ? options.roots : [options.roots]
  if (roots.length === 0) throw new Error(`${LOG_PREFIX} \`roots\` must name at least one folder`)
  if (options.compat !== undefined && !parseCompat(options.compat))
    throw new Error(`${LOG_PREFIX} \`compat\` accepts only 'ego-lite', not ${JSON.stringify(options.compat)}`)
  if (options.validateReturns !== undefined && !VALIDATE_RETURNS.includes(options.validateReturns))
    throw new Error(
      `${LOG_PREFIX} \`validateReturns\` accepts 'throw', 'warn' or false, not ` +
        `${JSON.stringify(options.validateReturns)}`,
    )
  if (options.cache !== undefined && options.cache !== false && (typeof options.cache !== 'string' || !options.cache))
    throw new Error(`${LOG_PREFIX} \`cache\` accepts a folder or false, not ${JSON.stringify(options.cache)}`)
  const budgetProblem = tokenBudgetProblem(options.tokenBudget)
  if (budgetProblem) throw new Error(`${LOG_PREFIX} \`tokenBudget\` ${budgetProblem}`)
  return roots
}

/** The options with every path resolved against the bundler's root. */
export function resolveOptions(options: Options, root: string): ResolvedOptions {
  const roots = checkOptions(options)
  const dts = options.dts === undefined ? DEFAULTS.dts : options.dts
  return {
    root,
    // Given or `learnings`, resolved against the bundler's root; never a root named by the environment.
    roots: resolveRoots(roots, root),
    dts: dts === false ? false : resolveUserPath(dts, root),
    compat: options.compat,
    minify: options.minify ?? DEFAULTS.minify,
    nodeTools: options.nodeTools,
    validateReturns: options.validateReturns,
    tokenBudget: options.tokenBudget,
    cache: options.cache === false ? false : resolveUserPath(options.cache ?? DEFAULTS.cache, root),
  }
}
