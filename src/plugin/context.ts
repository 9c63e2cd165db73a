import { type CompileResult, type CompiledSkill, type Compiler, createCompiler } from '../compiler/compile'
import { checkTokenBudgets } from '../tokens/budget'
import type { SkillModel } from '../compiler/model'
import {
  GENERATED_ID_RE,
  LOG_PREFIX,
  GROUP_ID_PREFIX,
  PLUGIN_NAME,
  RESOLVED_GROUP_PREFIX,
  RESOLVED_ID,
  RESOLVED_SKILL_PREFIX,
  RUNTIME_ID,
  SKILL_ID_PREFIX,
  VIRTUAL_ID,
} from '../ids'
import type { Diagnostic } from '../compiler/diagnostics/catalog'
import { generateDts } from '../codegen/dts'
import {
  chunkGroups,
  generateGroupChunk,
  generateGroupMember,
  generateMainModule,
  generateSkillChunk,
} from '../codegen/module'
import { writeIfChanged } from '../codegen/write'
import { type Options, type ResolvedOptions, resolveOptions } from './options'
import { notesOf } from '../compiler/notes'
import { isInside } from '../compiler/paths'
import { resolveRuntimeEntry } from './runtime-entry'
import { type BuildError, createBuildError, formatDiagnosticLine } from '../compiler/diagnostics/report'

export interface SiteSkillsContext {
  readonly options: ResolvedOptions
  /** Sets the bundler's root; relative options resolve against it. */
  setRoot: (root: string) => void
  /** Whether the module includes Node tools, unless the options say. */
  setNodeTools: (include: boolean) => void
  /** In Vite's dev server every failed load reports in full (each reaches the overlay), with links to each error. */
  setDevServer: (on: boolean) => void
  /** Compiles (cached per skill), writes the d.ts, prints new warnings; throws on any error. */
  build: () => Promise<CompileResult>
  /**
   * Compiles again after files changed, without throwing: what changed (skill ids whose chunk
   * differs, and whether the main module does) and the error, if the learnings are now invalid.
   */
  refresh: () => Promise<Refresh>
  /** Writes the d.ts again when it is missing or stale (after it was deleted). */
  writeDts: () => Promise<void>
  /** Resolved id of a generated module (given its public or its resolved id), or the runtime's file. */
  resolveId: (id: string) => string | undefined
  /** Code of a generated module; `browser` (when known) leaves Node tools out. */
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
  /** How many times the learnings were compiled (for tests of debouncing). */
  readonly compiles: number
}

/** What a load says when the build already reported why the learnings are invalid. */
const UNTIL_FIXED = 'until the learnings are fixed (see the errors above)'
export const UNAVAILABLE = `${LOG_PREFIX} virtual:site-skills is unavailable ${UNTIL_FIXED}`

export type Logger = (message: string) => void

interface Refresh {
  error?: BuildError
  /** Skills added, removed or changed. */
  skills: string[]
}

export function createSiteSkillsContext(
  rawOptions: Options = {},
  log: Logger = (m) => console.warn(m),
): SiteSkillsContext {
  let options = resolveOptions(rawOptions)
  let compiler: Compiler | undefined
  let last: CompileResult | undefined
  /** The error of the last compile, and whether it was already thrown (so it is shown once). */
  let failure: { error: BuildError; thrown: boolean } | undefined
  let includeNode = true
  let devServer = false
  let runtimeEntry: string | undefined
  const warned = new Set<string>()
  let byId = new Map<string, CompiledSkill>()
  /** Each skill's lazy chunk when skills share chunks (a build with many skills; never in the dev server). */
  let groups: ReadonlyMap<string, number> | undefined
  /**
   * Each skill's entry in its group's chunk, with and without Node tools, while its model and
   * compiled tools stay the same objects (the compiler's cache keeps them for unchanged skills):
   * a watch rebuild regenerates only the changed skills' code.
   */
  const members = new WeakMap<
    CompiledSkill['model'],
    { browser: CompiledSkill['browser']; code: Map<boolean, string> }
  >()
  function groupMember(skill: CompiledSkill, nodeTools: boolean): string {
    let entry = members.get(skill.model)
    if (entry?.browser !== skill.browser) {
      entry = { browser: skill.browser, code: new Map() }
      members.set(skill.model, entry)
    }
    let code = entry.code.get(nodeTools)
    if (code === undefined) {
      code = generateGroupMember(skill, { nodeTools, notes: notesOf(skill.model) })
      entry.code.set(nodeTools, code)
    }
    return code
  }
  /** Every file the skills read, for `isWatched` (called for every module of a build). */
  let readFiles = new Set<string>()

  /**
   * The declarations of the skills valid when validation ended, made while esbuild finishes the
   * browser tools (the compiler's `onValidated`): used when the compile's valid skills are the same.
   */
  let early: { models: readonly SkillModel[]; text: string } | undefined
  const onValidated = (models: readonly SkillModel[]) => {
    if (options.dts)
      early = {
        models,
        text: generateDts(
          models.map((model) => ({ model })),
          options.dts,
        ),
      }
  }
  const getCompiler = () =>
    (compiler ??= createCompiler({
      roots: options.roots,
      compat: options.compat,
      minify: options.minify,
      onValidated,
    }))

  function reportWarnings(result: CompileResult): void {
    for (const d of result.diagnostics) {
      if (d.severity !== 'warning') continue
      const line = formatDiagnosticLine(d, rootOf(result, d), options.root)
      if (!warned.has(line)) log(`${LOG_PREFIX} ${line}`)
      warned.add(line)
    }
  }

  let compiles = 0

  async function compile(): Promise<CompileResult> {
    compiles++
    const result = await checkTokenBudgets(await getCompiler().compile(), options.tokenBudget)
    last = result
    byId = new Map(result.skills.map((s) => [s.model.id, s]))
    groups = devServer ? undefined : chunkGroups([...byId.keys()])
    readFiles = new Set(result.records.flatMap((r) => r.files))
    reportWarnings(result)
    const error = result.errors > 0 ? createBuildError(result, options.root, devServer) : undefined
    // Vite's dev server also shows a failed module load in the overlay, naming the plugin only when
    // the error does: whichever report reaches the page last, it reads the same.
    if (error && devServer) error.plugin = PLUGIN_NAME
    failure = error ? { error, thrown: false } : undefined
    // Written before the bundler bundles: at 10,000 skills, building the d.ts text while the
    // bundler holds its modules raised the peak by 170 MiB (for 100 ms at 1,000 skills).
    if (!failure) await writeDts()
    return result
  }

  async function writeDts(): Promise<void> {
    const made = early
    early = undefined
    if (!options.dts || !last || last.errors > 0) return
    const skills = last.skills
    const same = made?.models.length === skills.length && skills.every((s, i) => s.model === made.models[i])
    await writeIfChanged(options.dts, same ? made.text : generateDts(skills, options.dts))
  }

  async function build(): Promise<CompileResult> {
    const result = await compile()
    if (failure) {
      failure.thrown = true
      throw failure.error
    }
    return result
  }

  async function recompile(): Promise<Refresh> {
    const before = new Map(last?.skills.map((s) => [s.model.id, s]))
    const result = await compile()
    const after = new Map(result.skills.map((s) => [s.model.id, s]))
    const changed = new Set(result.revalidated)
    for (const id of new Set([...before.keys(), ...after.keys()]))
      if (before.get(id)?.model !== after.get(id)?.model) changed.add(id)
    return { error: failure?.error, skills: [...changed].sort() }
  }

  /** Loads wait for a running refresh, so they never serve the state from before a change. */
  let refreshing: Promise<unknown> | undefined
  function refresh(): Promise<Refresh> {
    const done = recompile()
    refreshing = done.catch(() => undefined)
    return done
  }

  /** A generated module cannot load while the learnings are invalid: it fails with the report. */
  function throwIfFailed(): void {
    if (!failure) return
    if (!failure.thrown || devServer) {
      failure.thrown = true
      throw failure.error
    }
    // Already reported by this build (esbuild goes on after buildStart fails): say it short.
    const short = new Error(UNAVAILABLE)
    short.stack = ''
    throw short
  }

  return {
    get options() {
      return options
    },
    get last() {
      return last
    },
    get failed() {
      return failure !== undefined
    },
    get compiles() {
      return compiles
    },
    setRoot(root) {
      options = resolveOptions(rawOptions, root)
      compiler = undefined
    },
    setNodeTools(include) {
      includeNode = include
    },
    setDevServer(on) {
      devServer = on
    },
    build,
    refresh,
    writeDts,
    resolveId(id) {
      if (id === VIRTUAL_ID || id === RESOLVED_ID) return RESOLVED_ID
      if (id.startsWith(SKILL_ID_PREFIX)) return `\0${id}`
      if (id.startsWith(RESOLVED_SKILL_PREFIX)) return id
      if (id.startsWith(GROUP_ID_PREFIX)) return `\0${id}`
      if (id.startsWith(RESOLVED_GROUP_PREFIX)) return id
      if (id === RUNTIME_ID) {
        runtimeEntry ??= resolveRuntimeEntry()
        return runtimeEntry
      }
      return undefined
    },
    isGenerated: (id) => GENERATED_ID_RE.test(id),
    async load(id, browser) {
      if (!GENERATED_ID_RE.test(id)) return undefined
      await refreshing
      if (!last) await build()
      throwIfFailed()
      if (id === RESOLVED_ID) return generateMainModule(last!.skills, undefined, options, groups)
      const nodeTools = options.nodeTools ?? (browser === undefined ? includeNode : !browser)
      if (id.startsWith(RESOLVED_GROUP_PREFIX)) {
        const group = Number(id.slice(RESOLVED_GROUP_PREFIX.length))
        const inGroup = last!.skills.filter((s) => groups?.get(s.model.id) === group)
        if (inGroup.length === 0) throw new Error(`${LOG_PREFIX} no skill group ${JSON.stringify(id.slice(1))}`)
        return generateGroupChunk(inGroup.map((skill) => groupMember(skill, nodeTools)))
      }
      const skill = byId.get(id.slice(RESOLVED_SKILL_PREFIX.length))
      if (!skill) throw new Error(`${LOG_PREFIX} no skill ${JSON.stringify(id.slice(RESOLVED_SKILL_PREFIX.length))}`)
      return generateSkillChunk(skill, { nodeTools, notes: notesOf(skill.model) })
    },
    isWatched(file) {
      return readFiles.has(file) || options.roots.some((root) => isInside(root, file))
    },
    watchFiles: () => [...readFiles].sort(),
    filesOf: (ids) => (last?.records ?? []).filter((r) => ids.includes(r.folder.id)).flatMap((r) => r.files),
    watchDirs: () => [...options.roots, ...(last?.records.map((r) => r.folder.dir) ?? [])].sort(),
    moduleIds: {
      main: RESOLVED_ID,
      skills: (ids) => [
        ...new Set(
          ids.map((id) => {
            const group = groups?.get(id)
            return group === undefined ? `${RESOLVED_SKILL_PREFIX}${id}` : `${RESOLVED_GROUP_PREFIX}${group}`
          }),
        ),
      ],
    },
  }
}

function rootOf(result: CompileResult, d: Diagnostic): string {
  return result.reports.find((r) => r.id === d.siteId)?.root ?? ''
}
