import { createHash } from 'node:crypto'
import type { CompileResult, Compiler } from '../compiler/compile'
import type { Diagnostic } from '../compiler/diagnostics/catalog'
import { fileOf, formatDiagnosticLine } from '../compiler/diagnostics/report'
import { type Root, rootPath } from '../compiler/discover/roots'
import { isInside } from '../compiler/fs/paths'
import {
  DEBUG_RE,
  GENERATED_ID_RE,
  GROUP_ID_PREFIX,
  LOG_PREFIX,
  PLUGIN_NAME,
  RESOLVED_GROUP_PREFIX,
  RESOLVED_ID,
  RESOLVED_SKILL_PREFIX,
  RUNTIME_ID,
  SKILL_ID_PREFIX,
  VIRTUAL_ID,
} from '../ids'
import { type BuildError, createBuildError } from './build-error'
import { createDtsFile } from './dts-file'
import { createOutputCache } from './output-cache'
import { type ServedSkills, createModuleCode, serveSkills } from './module-code'
import type { ResolvedOptions } from './options'
import { resolveRuntimeEntry } from './runtime-entry'

/** What a bundler says of itself before the first compile; a context is made for one host. */
export interface Host {
  /** The bundler's root: relative options were resolved against it. */
  root: string
  /** Vite's dev server: every failed load reports in full (each reaches the overlay), with links to each error. */
  devServer?: boolean
  /** Whether the module includes Node tools when neither the options nor the environment say. @default true */
  nodeTools?: boolean
}

/** A warning of the skills, reported once per context: the line to print, and its diagnostic. */
export interface BuildWarning {
  /** `[site-skills] file:line:col  warning code  message`, the file relative to the bundler's root. */
  message: string
  diagnostic: Diagnostic
  /** The diagnostic's absolute file. */
  file: string
}

/** One compile: its result, its warnings not reported before, and its error when the skills are invalid. */
interface Compiled {
  result: CompileResult
  warnings: BuildWarning[]
  error?: BuildError
}

/** A compile after files changed, with what changed: skills added, removed or changed. */
interface Refresh extends Compiled {
  skills: string[]
}

export interface RootContext {
  readonly options: ResolvedOptions
  readonly host: Host
  /**
   * Compiles (cached per skill) and writes the d.ts when the skills are valid. Never throws for
   * invalid skills: the host reports `error` and `warnings` through its own channels.
   */
  compile: () => Promise<Compiled>
  /** Compiles again after files changed (loads wait for it). */
  refresh: () => Promise<Refresh>
  /** Writes the d.ts again when it is missing or stale (after it was deleted). */
  writeDts: () => Promise<void>
  /** Waits until the cache file holds the last compile (the build's end: nothing is left writing). */
  flush: () => Promise<void>
  /** Resolved id of a generated module (given its public or its resolved id), or the runtime's file. */
  resolveId: (id: string) => string | undefined
  /**
   * Code of a generated module, after a compile; `browser` (when known) leaves Node tools out.
   * Throws while the skills are invalid: the whole report in Vite's dev server (so that every
   * load shows it), else a short line (the host reported the errors already).
   */
  load: (id: string, browser?: boolean) => Promise<string | undefined>
  isGenerated: (id: string) => boolean
  /** Whether a file belongs to a root (so a change to it needs a rebuild). */
  isWatched: (file: string) => boolean
  /** Every file the current skills read (folders are in `watchDirs`), for the bundler's watcher. */
  watchFiles: () => string[]
  /** Files read by the given skills in the last compile. */
  filesOf: (skillIds: readonly string[]) => string[]
  /** The roots and skill folders, whose entries appearing or going away is a change. */
  watchDirs: () => string[]
  /** Ids of the generated modules (for invalidation in dev): the main one, and the chunks of the given skills. */
  readonly moduleIds: { main: string; skills: (ids: readonly string[]) => string[] }
  readonly last: CompileResult | undefined
  /** Whether the last compile found errors. */
  readonly failed: boolean
  /** How many times the skills were compiled (for tests of debouncing). */
  readonly compiles: number
}

/** What a load says when the build already reported why the skills are invalid. */
const UNTIL_FIXED = 'until the learnings are fixed (see the errors above)'
export const UNAVAILABLE = `${LOG_PREFIX} virtual:site-skills is unavailable ${UNTIL_FIXED}`

/** The state one compile leaves: its result, what the modules serve, the files it read, its error. */
interface State {
  result: CompileResult
  served: ServedSkills
  readFiles: ReadonlySet<string>
  error?: BuildError
  /** The key its generated modules are kept under on disk, when known (see OutputCache). */
  outputKey?: string
  /** Modules generated before the key was known (a first build), to keep once it is; and the d.ts text. */
  generated: Map<string, string>
  generatedSize: number
  dts?: string
  /** Modules served from the cache and generated, since this compile (for `DEBUG=site-skills`). */
  modules: { kept: number; generated: number }
}

/** `DEBUG=site-skills` (or `*`, as the debug package reads it) prints what the cache gave each build on stderr. */
const DEBUG = DEBUG_RE.test(process.env.DEBUG ?? '')

/**
 * Modules generated before their key is known are kept for the cache up to this many characters (a first build of
 * thousands of skills keeps none).
 */
const PENDING_MODULES_LIMIT = 32 * 1024 * 1024

export function createRootContext(options: ResolvedOptions, host: Host): RootContext {
  const dts = createDtsFile(options.dts, options.root)
  const code = createModuleCode(options)
  const { roots, compat, minify } = options
  // The compiler and its packages (esbuild, acorn, tldts, jsonc-parser) load with the first compile:
  // loading the bundler's config (a test runner, an editor, `vite preview`) does not pay for them.
  let compiler: Promise<Compiler> | undefined
  const compilerOf = () =>
    (compiler ??= import('../tokens/budget').then((m) =>
      m.createBudgetedCompiler({
        roots,
        compat,
        minify,
        project: options.root,
        onValidated: dts.prepare,
        tokenBudget: options.tokenBudget,
        ...(options.cache ? { cacheDir: options.cache } : {}),
      }),
    ))
  const newWarnings = createWarningFilter(options.root, options.roots)
  // The dev server serves a module per skill, each regenerated on an edit: only builds keep theirs.
  const outputs = options.cache && !host.devServer ? createOutputCache(options.cache, options.root) : undefined
  /** What the generated code depends on besides the skills. */
  const outputSalt = JSON.stringify({
    dts: options.dts,
    nodeTools: options.nodeTools ?? null,
    hostNodeTools: host.nodeTools ?? null,
    validateReturns: options.validateReturns ?? null,
    minify,
    compat: compat ?? null,
  })
  const outputKeyOf = (c: Compiler, skills: CompileResult['skills']) => {
    const key = c.outputKey(skills)
    return key && createHash('sha256').update(`${key}\0${outputSalt}`).digest('hex').slice(0, 32)
  }
  let state: State | undefined
  let compiles = 0
  /** Loads wait for a running refresh, so they never serve the state from before a change. */
  let refreshing: Promise<unknown> | undefined
  /** The compile under way, which a load waits for when there is no state yet (see `load`). */
  let compiling: Promise<unknown> | undefined

  function compile(): Promise<Compiled> {
    const done = compileNow()
    compiling = done.catch(() => undefined)
    return done
  }

  async function compileNow(): Promise<Compiled> {
    compiles++
    const compiler = await compilerOf()
    const result = await compiler.compile()
    const error = result.errors > 0 ? createBuildError(result, options.root, options.roots, host.devServer) : undefined
    // Vite's dev server also shows a failed module load in the overlay, naming the plugin only when
    // the error does: whichever report reaches the page last, it reads the same.
    if (error && host.devServer) error.plugin = PLUGIN_NAME
    const served = serveSkills(result.skills, host.devServer === true)
    const outputKey = outputs && !error ? outputKeyOf(compiler, result.skills) : undefined
    // Files under the key that fail the guard's inspection are removed (generated again) and warned about.
    const ignored = outputKey === undefined ? undefined : outputs?.inspect(outputKey)
    state = {
      result,
      served,
      readFiles: new Set(result.records.flatMap((r) => r.files)),
      error,
      outputKey,
      generated: new Map(),
      generatedSize: 0,
      modules: { kept: 0, generated: 0 },
    }
    // Written before the bundler bundles: building the d.ts text while the bundler holds its modules
    // raised the peak memory (bench/RESULTS.md, "Figures behind code comments"). Not at all when the
    // file holds what the same skills gave an earlier build.
    const current = outputKey !== undefined && options.dts !== false && outputs?.dtsCurrent(outputKey, options.dts)
    const written = !error && !current ? await dts.write(result.skills) : {}
    state.dts = written.text
    if (DEBUG && options.cache) {
      const reused = result.records.length - result.revalidated.length
      const file = compiler.cacheFile
      console.error(
        `${LOG_PREFIX} cache: ${reused} of ${result.records.length} skills reused from ` +
          `${file?.file}${file?.miss ? ` (file ${file.miss})` : ''}; d.ts ${current ? 'unchanged' : 'generated'}`,
      )
    }
    const own = [ignored, written.warning].filter((d) => d !== undefined)
    return { result, warnings: newWarnings([...result.diagnostics, ...own]), error }
  }

  async function recompile(): Promise<Refresh> {
    const before = new Map(state?.result.skills.map((s) => [s.model.id, s]))
    const compiled = await compile()
    const after = new Map(compiled.result.skills.map((s) => [s.model.id, s]))
    const changed = new Set(compiled.result.revalidated)
    for (const id of new Set([...before.keys(), ...after.keys()]))
      if (before.get(id)?.model !== after.get(id)?.model) changed.add(id)
    return { ...compiled, skills: [...changed].sort() }
  }

  function compiled(): State {
    if (!state) throw new Error(`${LOG_PREFIX} a module was loaded before the learnings were compiled`)
    if (!state.error) return state
    if (host.devServer) throw state.error
    const short = new Error(UNAVAILABLE)
    short.stack = ''
    throw short
  }

  return {
    options,
    host,
    get last() {
      return state?.result
    },
    get failed() {
      return state?.error !== undefined
    },
    get compiles() {
      return compiles
    },
    compile,
    refresh() {
      const done = recompile()
      refreshing = done.catch(() => undefined)
      return done
    },
    writeDts: async () => {
      if (state && !state.error) await dts.write(state.result.skills)
    },
    async flush() {
      if (!compiler) return
      const made = await compiler
      await made.flush()
      const now = state
      if (!outputs || !now || now.error) return
      if (DEBUG && now.modules.kept + now.modules.generated > 0)
        console.error(`${LOG_PREFIX} cache: ${now.modules.kept} modules reused, ${now.modules.generated} generated`)
      now.modules = { kept: 0, generated: 0 }
      const key = now.outputKey ?? outputKeyOf(made, now.result.skills)
      if (key === undefined) return
      if (now.generated.size || now.dts !== undefined) outputs.keep(key, now.generated, now.dts)
      outputs.prune(key)
      now.outputKey = key
      now.generated = new Map()
      now.generatedSize = 0
      now.dts = undefined
    },
    resolveId,
    isGenerated: (id) => GENERATED_ID_RE.test(id),
    async load(id, browser) {
      if (!GENERATED_ID_RE.test(id)) return undefined
      await refreshing
      // A bundler may load a module while its build-start hook still compiles (webpack's make).
      if (!state) await compiling
      const nodeTools = options.nodeTools ?? (browser === undefined ? host.nodeTools !== false : !browser)
      const now = compiled()
      const cacheId = `${nodeTools ? 'node' : 'browser'}:${id}`
      const kept = now.outputKey === undefined ? undefined : outputs?.module(now.outputKey, cacheId)
      if (kept !== undefined) {
        now.modules.kept++
        return kept
      }
      const text = code.generate(now.served, id, nodeTools)
      now.modules.generated++
      if (outputs && now.outputKey !== undefined) outputs.keep(now.outputKey, new Map([[cacheId, text]]), undefined)
      else if (outputs && now.generatedSize + text.length <= PENDING_MODULES_LIMIT) {
        now.generated.set(cacheId, text)
        now.generatedSize += text.length
      }
      return text
    },
    isWatched(file) {
      return state?.readFiles.has(file) === true || roots.some((root) => isInside(root.path, file))
    },
    watchFiles: () => [...(state?.readFiles ?? [])].sort(),
    filesOf: (ids) => (state?.result.records ?? []).filter((r) => ids.includes(r.folder.id)).flatMap((r) => r.files),
    watchDirs: () => [...roots.map(rootPath), ...(state?.result.records.map((r) => r.folder.dir) ?? [])].sort(),
    moduleIds: {
      main: RESOLVED_ID,
      skills: (ids) => [...new Set(ids.map((id) => chunkIdOf(state?.served.groups, id)))],
    },
  }
}

/** The resolved id of a generated module's public or resolved id, or the runtime's file. */
function resolveId(id: string): string | undefined {
  if (id === VIRTUAL_ID || id === RESOLVED_ID) return RESOLVED_ID
  if (id.startsWith(SKILL_ID_PREFIX) || id.startsWith(GROUP_ID_PREFIX)) return `\0${id}`
  if (id.startsWith(RESOLVED_SKILL_PREFIX) || id.startsWith(RESOLVED_GROUP_PREFIX)) return id
  if (id === RUNTIME_ID) return resolveRuntimeEntry()
  return undefined
}

/** The resolved id of the chunk that holds a skill: its own, or its group's. */
function chunkIdOf(groups: ReadonlyMap<string, number> | undefined, id: string): string {
  const group = groups?.get(id)
  return group === undefined ? `${RESOLVED_SKILL_PREFIX}${id}` : `${RESOLVED_GROUP_PREFIX}${group}`
}

/** The warnings of a compile not seen before by this filter (a watch rebuild repeats none). */
function createWarningFilter(
  base: string,
  roots: readonly Root[],
): (diagnostics: readonly Diagnostic[]) => BuildWarning[] {
  const seen = new Set<string>()
  return (diagnostics) => {
    const fresh: BuildWarning[] = []
    for (const d of diagnostics) {
      if (d.severity !== 'warning') continue
      const message = `${LOG_PREFIX} ${formatDiagnosticLine(d, base, roots)}`
      if (seen.has(message)) continue
      seen.add(message)
      fresh.push({ message, diagnostic: d, file: fileOf(d) })
    }
    return fresh
  }
}
