import type { KnowledgeNote } from '../../runtime/types'
import { type CompileResult, type Compiler, createCompiler } from './compiler'
import { LOG_PREFIX, RESOLVED_ID, RESOLVED_SKILL_PREFIX, RUNTIME_ID, SKILL_ID_PREFIX, VIRTUAL_ID } from './constants'
import type { Diagnostic } from './diagnostics'
import { generateDts } from './codegen/dts'
import { generateMainModule, generateSkillChunk } from './codegen/module'
import { writeIfChanged } from './write'
import { type Options, type ResolvedOptions, resolveOptions } from './options'
import { readNotes } from './notes'
import { isInside } from './paths'
import { resolveRuntimeEntry } from './runtime-entry'
import { createBuildError, formatDiagnosticLine } from './report'

export interface SiteSkillsContext {
  readonly options: ResolvedOptions
  /** Sets the bundler's root; relative options resolve against it. */
  setRoot: (root: string) => void
  /** Whether the module includes Node tools, unless the options say. */
  setNodeTools: (include: boolean) => void
  /** Compiles (cached per skill), writes the d.ts, prints new warnings; throws on any error. */
  build: () => Promise<CompileResult>
  /** Resolved id of a generated module (given its public or its resolved id), or the runtime's file. */
  resolveId: (id: string) => string | undefined
  /** Code of a generated module; `browser` (when known) leaves Node tools out. */
  load: (id: string, browser?: boolean) => Promise<string | undefined>
  isGenerated: (id: string) => boolean
  /** Whether a file belongs to a root (so a change to it needs a rebuild). */
  isWatched: (file: string) => boolean
  /** Every file and folder the current skills depend on, for the bundler's watcher. */
  watchFiles: () => string[]
  /** Ids of the generated modules (for invalidation in dev). */
  readonly moduleIds: { main: string; skills: (ids: readonly string[]) => string[] }
  readonly last: CompileResult | undefined
}

export type Logger = (message: string) => void

export function createSiteSkillsContext(rawOptions: Options = {}, log: Logger = (m) => console.warn(m)): SiteSkillsContext {
  let options = resolveOptions(rawOptions)
  let compiler: Compiler | undefined
  let last: CompileResult | undefined
  let includeNode = true
  let runtimeEntry: string | undefined
  const warned = new Set<string>()
  const notes = new Map<string, KnowledgeNote[]>()

  const getCompiler = () => (compiler ??= createCompiler({ roots: options.roots, compat: options.compat, minify: options.minify }))

  function reportWarnings(result: CompileResult): void {
    for (const d of result.diagnostics) {
      if (d.severity !== 'warning') continue
      const line = formatDiagnosticLine(d, rootOf(result, d), options.root)
      if (!warned.has(line)) log(`${LOG_PREFIX} ${line}`)
      warned.add(line)
    }
  }

  async function loadNotes(result: CompileResult): Promise<void> {
    const read = await Promise.all(result.skills.map((s) => readNotes(s.model)))
    notes.clear()
    result.skills.forEach((s, i) => notes.set(s.model.id, read[i]!))
  }

  async function build(): Promise<CompileResult> {
    const result = await getCompiler().compile()
    last = result
    reportWarnings(result)
    if (result.errors > 0) throw createBuildError(result, options.root)
    await loadNotes(result)
    if (options.dts) await writeIfChanged(options.dts, generateDts(result.skills))
    return result
  }

  function skillOf(id: string) {
    return last?.skills.find((s) => s.model.id === id)
  }

  return {
    get options() {
      return options
    },
    get last() {
      return last
    },
    setRoot(root) {
      options = resolveOptions(rawOptions, root)
      compiler = undefined
    },
    setNodeTools(include) {
      includeNode = include
    },
    build,
    resolveId(id) {
      if (id === VIRTUAL_ID || id === RESOLVED_ID) return RESOLVED_ID
      if (id.startsWith(SKILL_ID_PREFIX)) return `\0${id}`
      if (id.startsWith(RESOLVED_SKILL_PREFIX)) return id
      if (id === RUNTIME_ID) return (runtimeEntry ??= resolveRuntimeEntry())
      return undefined
    },
    isGenerated: (id) => id === RESOLVED_ID || id.startsWith(RESOLVED_SKILL_PREFIX),
    async load(id, browser) {
      if (id !== RESOLVED_ID && !id.startsWith(RESOLVED_SKILL_PREFIX)) return undefined
      if (!last || last.errors > 0) await build()
      if (id === RESOLVED_ID) return generateMainModule(last!.skills)
      const skill = skillOf(id.slice(RESOLVED_SKILL_PREFIX.length))
      if (!skill) throw new Error(`${LOG_PREFIX} no skill ${JSON.stringify(id.slice(RESOLVED_SKILL_PREFIX.length))}`)
      return generateSkillChunk(skill, { nodeTools: options.nodeTools ?? (browser === undefined ? includeNode : !browser), notes: notes.get(skill.model.id) ?? [] })
    },
    isWatched(file) {
      return options.roots.some((root) => isInside(root, file)) || (last?.records.some((r) => r.files.includes(file)) ?? false)
    },
    watchFiles() {
      const files = new Set<string>(options.roots)
      for (const record of last?.records ?? []) {
        files.add(record.folder.dir)
        for (const file of record.files) files.add(file)
      }
      return [...files].sort()
    },
    moduleIds: {
      main: RESOLVED_ID,
      skills: (ids) => ids.map((id) => `${RESOLVED_SKILL_PREFIX}${id}`),
    },
  }
}

function rootOf(result: CompileResult, d: Diagnostic): string {
  return result.reports.find((r) => r.id === d.siteId)?.root ?? ''
}
