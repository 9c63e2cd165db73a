import { createHash } from 'node:crypto'
import { relative } from 'node:path'
import type { BrowserToolCode } from '../../runtime/index'
import type { BrowserBundler, BundleRequest, BundleResult } from './bundle/browser-tools'
import { addFinding, checkCollisions } from './validate/collisions'
import { compareDiagnostics, countBySeverity, createDiagnostic, type Diagnostic } from './diagnostics/catalog'
import { packageDiagnostic } from './discover/skill-packages'
import { type RootInput, rootPath } from './discover/roots'
import { MANIFEST, type RootScan, scanRoot } from './discover/skills'
import type { SkillFolder, SkillModel, SkillRecord, ToolModel } from './model'
import { chunk } from './bundle/limit'
import { type CachedSkill, cacheKey, createPersistentCache } from './cache/persistent'
import type { Focus } from './focus'
import { toPosix } from './fs/paths'
import { type StampLog, stampFiles } from './fs/stamp'
import { unreadableSkill } from './discover/unreadable'
import { blocksSkill, type ValidateOptions } from './validate/folder-validation'
import type { FolderFindings } from './validate/skill'

export interface CompilerOptions extends ValidateOptions {
  /** Absolute roots (resolved, or plain folders), in priority order. */
  roots: readonly RootInput[]
  /**
   * The last stage of every compile, over its whole result: the token budgets, which
   * `createBudgetedCompiler` of src/tokens/budget.ts gives every compile.
   */
  finish?: (result: CompileResult) => Promise<CompileResult>
  /** Minify browser tools. @default true */
  minify?: boolean
  /**
   * The project: packages a browser tool imports by name come from its node_modules (or its
   * ancestors', or the skill's own). @default process.cwd()
   */
  project?: string
  /**
   * Only check (`site-skills validate`, `types`): ES-module browser tools are still bundled (that
   * is how their imports are checked) but without source maps; bare-function tools, already
   * parsed by the validator and importing nothing, are not compiled at all.
   */
  checkOnly?: boolean
  /**
   * Compile no browser tool during `compile()` (the no-build API): each is compiled when it is
   * first used, by `compileBrowserTool`. Errors esbuild alone finds (an ES module's imports) then
   * show at that call rather than in the compile result.
   */
  lazyBrowser?: boolean
  /**
   * Called during `compile()` once every folder is validated, while esbuild may still be compiling
   * browser tools: the models of all skills valid so far, in folder order (not called when a
   * folder already has an error). Bundling and the cross-skill rules may still reject some: the
   * result of `compile()` decides. Work done here overlaps esbuild's.
   */
  onValidated?: (models: readonly SkillModel[]) => void
  /**
   * A folder for a cache that outlives the process (the plugin's `cache` option, by default
   * `node_modules/.cache/site-skills`): a skill whose inputs are unchanged, by content, is taken
   * from it instead of being validated and compiled again.
   */
  cacheDir?: string
}

/** A valid skill with its browser tools compiled. */
export interface CompiledSkill {
  model: SkillModel
  browser: Record<string, BrowserToolCode>
}

/** The findings of one folder (cross-skill ones included), sorted. */
interface SkillReport {
  id: string
  root: string
  diagnostics: Diagnostic[]
}

export interface CompileResult {
  roots: RootScan[]
  /** Valid skills, in root order then directory-name order. */
  skills: CompiledSkill[]
  /** Every folder looked at, valid or not. */
  records: SkillRecord[]
  /** Findings per folder, in folder order. */
  reports: SkillReport[]
  /** Every finding of every skill, sorted. */
  diagnostics: Diagnostic[]
  errors: number
  warnings: number
  /** Skills validated in this run (the others came from the cache). */
  revalidated: string[]
}

export interface Compiler {
  /**
   * Compiles every skill folder; with a focus, only the folders it needs (see focusFolders): the
   * result then holds those alone, each with the findings a full compile gives it.
   */
  compile: (focus?: Focus) => Promise<CompileResult>
  /** One browser tool of a valid skill, compiled now (or taken from the cache while its inputs are unchanged). */
  compileBrowserTool: (model: SkillModel, tool: ToolModel) => Promise<BundleResult>
  /** Browser tools compiled by esbuild so far (cache hits excluded). */
  readonly bundled: number
  /** Waits until the cache file (with `cacheDir`) holds the last compile. */
  flush: () => Promise<void>
  /**
   * One digest of these skills' inputs by content, in order (with `cacheDir`, once every one is
   * known: after `flush` for skills compiled in this process): what is generated from them alone
   * can be kept under it.
   */
  outputKey: (skills: readonly CompiledSkill[]) => string | undefined
  /** The cache file (with `cacheDir`), and why its last read found nothing usable. */
  readonly cacheFile?: { file: string; miss: string | undefined }
}

/** What bundling one folder's browser tools produced. */
interface Bundled {
  diagnostics: Diagnostic[]
  files: string[]
  browser: Record<string, BrowserToolCode>
}

interface CacheEntry extends CachedSkill {
  /**
   * The stamps of its files, hashed (what the cache of this process compares); none for a skill
   * taken from the persistent cache, which compares its stored inputs instead.
   */
  digest?: string
}

/** Folders validated before their tools are handed to esbuild (pipelining the two). */
const VALIDATE_SLICE = 100
/** Slices validated at once. */
const SLICES_IN_FLIGHT = 2
/**
 * The last slice goes in four: what esbuild has left to do once validation ends is time the build
 * waits (bench/RESULTS.md, "Figures behind code comments").
 */
const LAST_SLICES = 4

/** Slices of VALIDATE_SLICE folders, the last one cut in LAST_SLICES. */
function slicesOf(folders: readonly SkillFolder[]): SkillFolder[][] {
  const slices = chunk(folders, VALIDATE_SLICE)
  const last = slices.pop()
  return last ? [...slices, ...chunk(last, Math.ceil(last.length / LAST_SLICES))] : slices
}

function folderKey(folder: SkillFolder): string {
  return `${folder.root}\0${folder.id}\0${folder.realDir}`
}

/** Cross-skill rules: an id used twice across roots, a pattern claimed by two skills, and name collisions. */
export function crossCheck(records: readonly SkillRecord[]): Map<SkillRecord, Diagnostic[]> {
  const found = checkCollisions(records)
  const add = (r: SkillRecord, d: Diagnostic) => addFinding(found, r, d)
  const ids = new Map<string, SkillRecord>()
  const claims = new Map<string, string>()
  for (const record of records) {
    const { id, root } = record.folder
    const first = ids.get(id)
    if (first) {
      const where = toPosix(relative(root, first.folder.root)) || '.'
      add(
        record,
        createDiagnostic(record.folder, `${id}/${MANIFEST}`, {
          code: 'duplicate-id',
          data: { id, where },
          ...record.locate?.(['id']),
        }),
      )
      continue
    }
    ids.set(id, record)
    if (!record.model) continue
    for (const site of record.domainSites) {
      const owner = claims.get(site.pattern)
      if (owner && owner !== id) {
        add(
          record,
          createDiagnostic(record.folder, `${id}/${MANIFEST}`, {
            code: 'domain-shadowed',
            data: { pattern: site.pattern, owner },
            ...record.locate?.(site.path),
          }),
        )
      } else claims.set(site.pattern, id)
    }
  }
  return found
}

/**
 * The compiler: discovers skill folders, validates each (cached by the stamps of every file it
 * reads), compiles browser tools in one esbuild batch, and applies the cross-skill rules.
 */
export function createCompiler(options: CompilerOptions): Compiler {
  // Validation and esbuild load when a skill needs them: a build whose skills all come from the
  // persistent cache loads neither.
  let bundler: BrowserBundler | undefined
  let bundlerMade: Promise<BrowserBundler> | undefined
  const bundlerOf = () =>
    (bundlerMade ??= import('./bundle/browser-tools').then((m) => {
      bundler = m.createBrowserBundler({
        minify: options.minify ?? true,
        sourcemap: !options.checkOnly,
        project: options.project,
      })
      return bundler
    }))
  let validation: Promise<typeof import('./validate/skill')> | undefined
  const validationOf = () => (validation ??= import('./validate/skill'))
  const salt = JSON.stringify({ compat: options.compat ?? null, minify: options.minify ?? true })
  let cache = new Map<string, CacheEntry>()
  /** The entry of each served model (for `outputKey`). */
  const byModel = new WeakMap<SkillModel, CacheEntry>()
  const { onValidated: _, cacheDir, ...keyed } = options
  const persistent = cacheDir
    ? createPersistentCache(cacheDir, cacheKey({ ...keyed }), options.project ?? process.cwd())
    : undefined
  const blocks = (d: Diagnostic) => blocksSkill(d, options)

  /**
   * The stamps of a skill's files, hashed: the list itself (every path and stamp, about 1 KiB a
   * skill, built by concatenation) would stay in the cache as a tree of string pieces.
   */
  const digestOf = (record: SkillRecord, stamps?: StampLog) =>
    createHash('sha256')
      .update(stampFiles(record.files, salt, stamps))
      .digest('base64')

  async function reuse(folder: SkillFolder): Promise<CacheEntry | undefined> {
    const entry = cache.get(folderKey(folder))
    if (!entry) return undefined
    if (entry.digest === undefined) return persistent?.unchanged(entry) ? entry : undefined
    return digestOf(entry.record) === entry.digest ? entry : undefined
  }

  function requestsOf(record: FolderFindings): BundleRequest[] {
    if (options.lazyBrowser) return []
    return record.tools
      .filter((t) => t.kind === 'browser' && (t.module || !options.checkOnly))
      .map((t) => ({
        siteId: record.folder.id,
        root: record.folder.root,
        tool: t.name,
        absPath: t.absPath,
        module: t.module === true,
        realDir: record.folder.realDir,
        ...(t.module ? {} : { text: record.sources?.get(t.absPath) }),
      }))
  }

  /**
   * Validates the folders slice by slice; each slice's browser tools go to esbuild (another
   * process) while the next slice is validated here.
   */
  async function validateAndBundle(
    folders: SkillFolder[],
    stamps: StampLog,
    validated: (checked: readonly FolderFindings[]) => void,
  ): Promise<Map<SkillRecord, Record<string, BrowserToolCode>>> {
    if (folders.length === 0) {
      validated([])
      return new Map()
    }
    const [{ validateFolder, settleSkill }, bundler] = await Promise.all([validationOf(), bundlerOf()])
    const requests = new Map<BundleRequest, FolderFindings>()
    const pending: Promise<Map<BundleRequest, BundleResult>>[] = []
    const bySlice: FolderFindings[][] = []
    // A folder whose check throws (a file too large to read) fails alone.
    const check = (folder: SkillFolder) =>
      validateFolder(folder, options, stamps).catch((e: unknown): FolderFindings => unreadableSkill(folder, e))
    const checkSlice = async (slice: readonly SkillFolder[], index: number) => {
      const sliceChecked = await Promise.all(slice.map(check))
      bySlice[index] = sliceChecked
      const own = sliceChecked.flatMap((skill) => requestsOf(skill).map((r) => [r, skill] as const))
      for (const [request, skill] of own) requests.set(request, skill)
      pending.push(
        bundler.bundle(
          own.map(([request]) => request),
          stamps,
        ),
      )
    }
    // Slices overlap: while one waits for its syntax checks (on a worker thread, see v8-syntax.ts),
    // the next is validated here.
    const running: Promise<void>[] = []
    for (const [index, slice] of slicesOf(folders).entries()) {
      running.push(checkSlice(slice, index))
      if (running.length < SLICES_IN_FLIGHT) continue
      await running.shift()
      // Checks made here run on microtasks: let the event loop send esbuild this slice and take its answers.
      await new Promise<void>((resume) => setImmediate(resume))
    }
    await Promise.all(running)
    const checked = bySlice.flat()
    validated(checked)
    const results = new Map((await Promise.all(pending)).flatMap((batch) => [...batch]))
    const bundled = new Map<FolderFindings, Bundled>(
      checked.map((s) => [s, { diagnostics: [], files: [], browser: Object.create(null) }]),
    )
    for (const [request, skill] of requests) {
      const result = results.get(request)!
      const found = bundled.get(skill)!
      found.files.push(...result.inputs)
      found.diagnostics.push(...result.diagnostics)
      if (result.code) found.browser[request.tool] = result.code
    }
    // Each folder is settled once, with its bundle findings: whether it is valid is decided there.
    const settled = checked.map((skill) => {
      const found = bundled.get(skill)!
      return [settleSkill(skill, options, found), found.browser] as const
    })
    return new Map(settled)
  }

  async function compile(focus?: Focus): Promise<CompileResult> {
    // A root given twice is read once (the first).
    const once = new Map<string, RootInput>()
    for (const root of options.roots) if (!once.has(rootPath(root))) once.set(rootPath(root), root)
    const roots = await Promise.all([...once.values()].map(scanRoot))
    const all = roots.flatMap((r) => r.folders)
    const folders = focus ? await (await import('./focus')).focusFolders(all, focus) : all
    const hits = await Promise.all(folders.map(reuse))
    // Files read in this compile are stamped as they are read: the cache needs no second `stat`.
    // With the persistent cache, each read leaves its digest too (the cache file is keyed by content).
    const stamps: StampLog = persistent ? Object.assign(new Map<string, string>(), { digests: new Map() }) : new Map()
    if (persistent) {
      const unknown = folders.filter((_, i) => !hits[i])
      const stored = persistent.lookup(unknown, folderKey)
      const byFolder = new Map(unknown.map((f, i) => [f, stored[i]]))
      for (const [i, folder] of folders.entries()) {
        const found = byFolder.get(folder)
        if (found) hits[i] = found
      }
    }
    const missed = folders.filter((_, i) => !hits[i])
    const browser = await validateAndBundle(missed, stamps, (checked) => {
      // Nothing validated (every skill cached): there is no esbuild work for the callback to overlap.
      if (!options.onValidated || checked.length === 0) return
      const byFolder = new Map(checked.map((c) => [c.folder, c]))
      const models: SkillModel[] = []
      for (const [i, folder] of folders.entries()) {
        const hit = hits[i]?.record
        const fresh = byFolder.get(folder)
        if ((hit ?? fresh)?.diagnostics.some(blocks) !== false) return
        const model = hit ? hit.model : fresh?.candidate
        if (model) models.push(model)
      }
      options.onValidated(models)
    })
    const fresh = [...browser.keys()]
    const next = new Map<string, CacheEntry>()
    for (const [i, folder] of folders.entries()) {
      const hit = hits[i]
      if (hit) next.set(folderKey(folder), hit)
    }
    await Promise.all(
      fresh.map(async (record) => {
        next.set(folderKey(record.folder), {
          folder: record.folder,
          digest: digestOf(record, stamps),
          record,
          browser: browser.get(record)!,
        })
      }),
    )
    // A focused compile saw only some folders: the others keep what they had.
    cache = focus ? new Map([...cache, ...next]) : next
    const entries = folders.map((f) => next.get(folderKey(f))!)
    for (const entry of entries) if (entry.record.model) byModel.set(entry.record.model, entry)
    if (persistent && !focus) persistent.save(entries, folderKey, stamps)
    const cross = crossCheck(entries.map((e) => e.record))
    const skills: CompiledSkill[] = []
    const diagnostics: Diagnostic[] = []
    const reports: SkillReport[] = []
    for (const { record, browser: code } of entries) {
      const extra = cross.get(record) ?? []
      reports.push({
        id: record.folder.id,
        root: record.folder.root,
        diagnostics: [...record.diagnostics, ...extra].sort(compareDiagnostics),
      })
      diagnostics.push(...record.diagnostics, ...extra)
      if (record.model && !extra.some(blocks)) skills.push({ model: record.model, browser: code })
    }
    const untrusted = persistent?.takeFinding()
    if (untrusted) {
      diagnostics.push(untrusted)
      reports.push({ id: '', root: untrusted.root, diagnostics: [untrusted] })
    }
    for (const scan of roots) {
      for (const { id, package: name } of scan.escapes ?? []) {
        const escaped = createDiagnostic({ id, root: scan.root }, id, {
          code: 'path-escape',
          data: { via: 'package-skill', package: name },
        })
        diagnostics.push(escaped)
        reports.push({ id, root: scan.root, diagnostics: [escaped] })
      }
      if (scan.exists) continue
      // An error, not "no skills": a mistyped root must fail the build, not ship an empty agent.
      const missing = scan.problem
        ? packageDiagnostic(scan.problem, scan.root)
        : createDiagnostic({ id: '', root: scan.root }, '.', {
            code: 'root-missing',
            data: { root: scan.root, ...(scan.error ? { error: scan.error } : {}) },
          })
      diagnostics.push(missing)
      reports.push({ id: '', root: scan.root, diagnostics: [missing] })
    }
    diagnostics.sort(compareDiagnostics)
    const result: CompileResult = {
      roots,
      skills,
      records: entries.map((e) => e.record),
      reports,
      diagnostics,
      ...countBySeverity(diagnostics),
      revalidated: missed.map((f) => f.id),
    }
    return options.finish ? options.finish(result) : result
  }

  async function compileBrowserTool(model: SkillModel, tool: ToolModel): Promise<BundleResult> {
    const request = {
      siteId: model.id,
      root: model.root,
      tool: tool.name,
      absPath: tool.absPath,
      module: tool.module === true,
      realDir: model.realDir,
    }
    return (await (await bundlerOf()).bundle([request])).get(request)!
  }

  return {
    compile,
    compileBrowserTool,
    get bundled() {
      return bundler?.compiled ?? 0
    },
    flush: () => persistent?.flush() ?? Promise.resolve(),
    outputKey(skills) {
      if (!persistent) return undefined
      const hash = createHash('sha256').update(persistent.key)
      for (const skill of skills) {
        const digest = byModel.get(skill.model)?.inputs?.digest
        if (!digest) return undefined
        hash.update(`\0${skill.model.id}\0${digest}`)
      }
      return hash.digest('hex').slice(0, 32)
    },
    get cacheFile() {
      return persistent && { file: persistent.store.file, miss: persistent.store.miss }
    },
  }
}
