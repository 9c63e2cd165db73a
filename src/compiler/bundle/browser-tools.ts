import { createHash } from 'node:crypto'
import { isAbsolute, relative, resolve } from 'node:path'
import { type BuildOptions, type Message, type Metafile, type Plugin, build } from 'esbuild'
import type { BrowserToolCode } from '../../../runtime/index'
import { type BundleGuard, createBundleGuard, guardFinding, guardProblemOf } from './bundle-guard'
import { createDiagnostic, type Diagnostic } from '../diagnostics/catalog'
import { compileExpressions, EXPORT_CLAUSE_RE, type ExpressionInput } from './expressions'
import { FILE_LIMITS, READ_FAILURE_CODES, type ReadFailure, isReadFailure, readRegularFile } from '../fs/files'
import { chunk, createLimiter } from './limit'
import { isInside, isTypeScript, pathBelow, toPosix } from '../fs/paths'
import { type StampLog, contentDigest as stampDigest, stampOf } from '../fs/stamp'

/** One browser tool to compile. */
export interface BundleRequest {
  siteId: string
  /** The root the skill was found in (its diagnostics carry it). */
  root: string
  tool: string
  /** Real path of the tool file. */
  absPath: string
  /** ES module with a default export, rather than a bare function expression. */
  module: boolean
  /** Real path of the skill folder: local imports must stay inside it. */
  realDir: string
  /** A bare tool's text as validation read it: compiled as is, not read again. */
  text?: string
}

export interface BundleResult {
  code?: BrowserToolCode
  diagnostics: Diagnostic[]
  /** Real paths of the files it was built from (its own file first). */
  inputs: string[]
}

export interface BrowserBundlerOptions {
  minify: boolean
  /** Source maps for the runtime to map errors to the tool's lines. @default true */
  sourcemap?: boolean
  /**
   * Where packages a tool imports by name are installed (its node_modules and its ancestors'). @default process.cwd()
   */
  project?: string
}

export interface BrowserBundler {
  /** `stamps`: the compile's log of stamps taken as files were read (the cache keeps those of its inputs). */
  bundle: (requests: readonly BundleRequest[], stamps?: StampLog) => Promise<Map<BundleRequest, BundleResult>>
  /** How many tools esbuild has compiled so far (cache hits excluded). */
  readonly compiled: number
}

const OUTDIR = resolve('/__site_skills_out__')
/** The function the runtime calls: the bundle's body, then a call of its default export. */
const WRAP_START = 'async function(){\n'

/** The digest of a file's content (a string counts as its UTF-8 bytes). */
function contentDigest(content: Buffer | string): string {
  return createHash('sha256').update(content).digest('hex').slice(0, 32)
}

/** Where the authoring helpers are inlined from: no file, so nothing to read, watch or escape. */
const HELPER_NAMESPACE = 'site-skills-tool'
const HELPER_SOURCE =
  'export const defineBrowserTool = (_s, _t, f) => f\nexport const defineNodeTool = (_s, _t, f) => f\n'

/**
 * `unplugin-site-skills/tool` in a browser tool: its helpers return the function they are given,
 * so they are inlined as such (the tool needs the package only for its types).
 */
const inlineHelpers: Plugin = {
  name: 'site-skills-tool-helpers',
  setup(b) {
    b.onResolve({ filter: /^unplugin-site-skills\/tool$/ }, () => ({ path: 'tool', namespace: HELPER_NAMESPACE }))
    b.onLoad({ filter: /.*/, namespace: HELPER_NAMESPACE }, () => ({ contents: HELPER_SOURCE, loader: 'js' }))
  },
}

function buildOptions(
  requests: readonly BundleRequest[],
  { minify, sourcemap = true }: BrowserBundlerOptions,
  guard: BundleGuard,
): BuildOptions {
  return {
    entryPoints: Object.fromEntries(requests.map((r, i) => [`t${i}`, r.absPath])),
    bundle: true,
    write: false,
    format: 'esm',
    platform: 'browser',
    target: 'es2022',
    minify,
    keepNames: false,
    sourcemap: sourcemap ? 'external' : false,
    sourcesContent: false,
    metafile: true,
    plugins: [inlineHelpers, guard.plugin],
    // No tsconfig.json is read: the output does not depend on folders above the skill, and esbuild
    // reads nothing (a pipe, an `extends` anywhere) the guard has not seen.
    tsconfigRaw: {},
    // Reported (not emitted): a tool runs as a function, where import.meta is a syntax error.
    supported: { 'import-meta': false },
    outdir: OUTDIR,
    legalComments: 'none',
    charset: 'utf8',
    logLevel: 'silent',
  }
}

function realInput(path: string, cwd: string): string {
  return resolve(cwd, path)
}

/** Where a source or error file is shown: relative to the skill's root, else a node_modules path. */
function displayPath(request: BundleRequest, abs: string): string {
  const dir = request.realDir
  const below = pathBelow(dir, abs)
  if (below !== undefined) return toPosix(`${request.siteId}/${below}`)
  const nm = toPosix(abs).lastIndexOf('/node_modules/')
  if (nm >= 0) return toPosix(abs).slice(nm + 1)
  return toPosix(relative(resolve(dir, '..'), abs))
}

/** A file a tool may not import, as messages show it: from the root when near it, else its whole real path. */
function escapedPath(request: BundleRequest, abs: string): string {
  const rel = toPosix(relative(resolve(request.realDir, '..'), abs))
  return rel.startsWith('../../../') ? toPosix(abs) : rel
}

/**
 * An esbuild message as a diagnostic at its place: the guard's findings with their own codes (at the
 * import that led to the file, else at the file), anything else as `tool-parse`.
 */
function toDiagnostic(request: BundleRequest, message: Message, cwd: string): Diagnostic {
  const loc = message.location
  const problem = guardProblemOf(message.detail)
  const abs = loc ? realInput(loc.file, cwd) : problem && isAbsolute(problem.file) ? problem.file : request.absPath
  const finding = problem
    ? guardFinding(problem, request.tool, (file) =>
        problem.kind === 'escape' ? escapedPath(request, file) : displayPath(request, file),
      )
    : ({ code: 'tool-parse', data: { problem: 'bundle', tool: request.tool, reason: message.text } } as const)
  return createDiagnostic(skillOf(request), displayPath(request, abs), {
    ...finding,
    line: loc?.line ?? 1,
    column: (loc?.column ?? 0) + 1,
  })
}

/** `import.meta` in a file of the tool (esbuild reports each one, as the target has none): at its place. */
function importMetaDiagnostics(
  request: BundleRequest,
  warnings: readonly Message[],
  inputs: readonly string[],
  cwd: string,
) {
  const files = new Set(inputs)
  return warnings
    .filter((w) => w.id === 'empty-import-meta' && w.location && files.has(realInput(w.location.file, cwd)))
    .map((w) =>
      createDiagnostic(skillOf(request), displayPath(request, realInput(w.location!.file, cwd)), {
        code: 'tool-parse',
        data: { problem: 'import-meta', tool: request.tool },
        line: w.location!.line,
        column: w.location!.column + 1,
      }),
    )
}

/** The function the runtime calls: the compiled body, then a call of `local`; the map moves down a line. */
function wrap(body: string, local: string, map?: { sources: string[]; mappings: string }): BrowserToolCode {
  const source = `${WRAP_START}${body}\nreturn ${local}.apply(this,arguments)}`
  return map ? { source, map: { sources: map.sources, mappings: `;${map.mappings}` } } : { source }
}

/** What one build's output is checked with: its guard, esbuild's warnings, the working directory. */
interface BuildContext {
  guard: BundleGuard
  warnings: readonly Message[]
  cwd: string
}

function finish(
  request: BundleRequest,
  js: string,
  mapText: string | undefined,
  inputs: string[],
  context: BuildContext,
): BundleResult {
  // The guard let in files of every skill of the build: each tool's own must be of its own skill.
  const escapes = inputs
    .filter((file) => !isInside(request.realDir, file) && !context.guard.isPackageFile(file))
    .map((file) =>
      createDiagnostic(skillOf(request), displayPath(request, request.absPath), {
        code: 'path-escape',
        data: { via: 'import', tool: request.tool, file: escapedPath(request, file) },
      }),
    )
  const diagnostics = [...escapes, ...importMetaDiagnostics(request, context.warnings, inputs, context.cwd)]
  const clause = EXPORT_CLAUSE_RE.exec(js)
  if (!clause) throw new Error(`site-skills: unexpected esbuild output for ${request.absPath}`)
  const body = js.slice(0, clause.index).trimEnd()
  if (!mapText) return { code: wrap(body, clause[1]!), diagnostics, inputs }
  const map = JSON.parse(mapText) as { sources: string[]; mappings: string }
  const sources = map.sources.map((s) => displayPath(request, realInput(s, OUTDIR)))
  return { code: wrap(body, clause[1]!, { sources, mappings: map.mappings }), diagnostics, inputs }
}

/** Every input reachable from an entry in the build graph (outputs omit files that add no bytes). */
function reachableInputs(metafile: Metafile, entry: string): string[] {
  const seen = new Set<string>([entry])
  const queue = [entry]
  while (queue.length) {
    for (const imported of metafile.inputs[queue.pop()!]?.imports ?? []) {
      if (imported.external || seen.has(imported.path)) continue
      seen.add(imported.path)
      queue.push(imported.path)
    }
  }
  return [...seen]
}

function collect(
  requests: readonly BundleRequest[],
  outputs: { path: string; text: string }[],
  metafile: Metafile,
  context: BuildContext,
): Map<BundleRequest, BundleResult> {
  const cwd = context.cwd
  const byPath = new Map(outputs.map((o) => [o.path, o.text]))
  const results = new Map<BundleRequest, BundleResult>()
  requests.forEach((request, i) => {
    const jsPath = resolve(OUTDIR, `t${i}.js`)
    const entry = metafile.outputs[toPosix(relative(cwd, jsPath))]?.entryPoint
    const graph = (entry ? reachableInputs(metafile, entry) : []).filter((p) => !p.startsWith(`${HELPER_NAMESPACE}:`))
    const inputs = [request.absPath, ...graph.map((p) => realInput(p, cwd)).filter((p) => p !== request.absPath)]
    results.set(request, finish(request, byPath.get(jsPath) ?? '', byPath.get(`${jsPath}.map`), inputs, context))
  })
  return results
}

/** The skill a request's diagnostics belong to. */
const skillOf = (request: BundleRequest) => ({ id: request.siteId, root: request.root })

/** The file changed since it was validated (now a pipe, unreadable, too large): said as validate says it. */
function readDiagnostic(request: BundleRequest, failure: ReadFailure): Diagnostic {
  const data = { subject: { kind: 'browser', name: request.tool } as const, reason: failure.message }
  const code = READ_FAILURE_CODES[failure.problem]
  return createDiagnostic(skillOf(request), displayPath(request, request.absPath), { code, data })
}

/**
 * A tool's file as read for compiling (or as validation read it), with its digest kept for the
 * cache. A text is digested as UTF-8: the file's bytes, unless they were not UTF-8, in which case
 * the digest differs from the file's and a later change of stamp recompiles the tool.
 */
function readTool(request: BundleRequest, hashes: Map<string, string>): string | BundleResult {
  if (request.text !== undefined) {
    hashes.set(request.absPath, contentDigest(request.text))
    return request.text
  }
  const read = readRegularFile(request.absPath, FILE_LIMITS.tool)
  if (isReadFailure(read)) return { diagnostics: [readDiagnostic(request, read)], inputs: [request.absPath] }
  hashes.set(request.absPath, contentDigest(read))
  return read.toString('utf8')
}

/**
 * Bare function expressions import nothing, so they need no bundling: esbuild transforms them,
 * many to a call (see expressions.ts), which costs no round trips into JavaScript.
 */
async function transformExpressions(
  requests: readonly BundleRequest[],
  { minify, sourcemap = true }: BrowserBundlerOptions,
  hashes: Map<string, string>,
): Promise<BundleResult[]> {
  const results: BundleResult[] = []
  const inputs: ExpressionInput[] = []
  const readable: number[] = []
  for (const [i, request] of requests.entries()) {
    const text = readTool(request, hashes)
    if (typeof text !== 'string') results[i] = text
    else {
      readable.push(i)
      inputs.push({ text, file: request.absPath })
    }
  }
  const typescript = requests.length > 0 && isTypeScript(requests[0]!.absPath)
  const compiled = inputs.length ? await compileExpressions(inputs, { minify, sourcemap, typescript }) : []
  for (const [k, i] of readable.entries()) {
    const request = requests[i]!
    const out = compiled[k]!
    const inputsOf = [request.absPath]
    if ('errors' in out) {
      results[i] = { diagnostics: out.errors.map((m) => toDiagnostic(request, m, process.cwd())), inputs: inputsOf }
      continue
    }
    const map =
      out.mappings === undefined
        ? undefined
        : { sources: [displayPath(request, request.absPath)], mappings: out.mappings }
    results[i] = { code: wrap(out.body, out.local, map), diagnostics: [], inputs: inputsOf }
  }
  return results
}

/**
 * A failed tool's result: its diagnostics, with the files that caused them among its inputs (fixing one recompiles).
 */
function failed(request: BundleRequest, messages: readonly Message[], cwd: string): BundleResult {
  const culprits = messages.map((m) => guardProblemOf(m.detail)?.file).filter((f) => f !== undefined && isAbsolute(f))
  const inputs = [...new Set([request.absPath, ...culprits])] as string[]
  return { diagnostics: messages.map((m) => toDiagnostic(request, m, cwd)), inputs }
}

/**
 * A tool of a skill esbuild may not resolve in (a package.json in it or above it is a pipe, ...), refused before
 * esbuild starts.
 */
function refused(request: BundleRequest, guard: BundleGuard): BundleResult | undefined {
  const problem = guard.skillProblem(request.realDir)
  if (!problem) return undefined
  const finding = guardFinding(problem, request.tool, (file) => displayPath(request, file))
  const diagnostic = createDiagnostic(skillOf(request), displayPath(request, problem.file), finding)
  return { diagnostics: [diagnostic], inputs: [request.absPath, problem.file] }
}

/** What the files read while compiling leave for the cache: their stamps and content digests. */
interface Reads {
  stamps: StampLog
  hashes: Map<string, string>
}

/** ES-module tools are bundled in one esbuild call; a failure is retried tool by tool to know which. */
async function bundleModules(
  requests: readonly BundleRequest[],
  options: BrowserBundlerOptions,
  reads: Reads,
): Promise<Map<BundleRequest, BundleResult>> {
  const cwd = process.cwd()
  const results = new Map<BundleRequest, BundleResult>()
  const guard = createBundleGuard({
    skillDirs: [...new Set(requests.map((r) => r.realDir))],
    project: options.project,
    stamps: reads.stamps,
    onRead: (file, content) => {
      reads.hashes.set(file, contentDigest(content))
      const digests = reads.stamps.digests
      if (digests && !digests.has(file)) digests.set(file, stampDigest(content))
    },
  })
  const ready = requests.filter((r) => {
    const refusal = refused(r, guard)
    if (refusal) results.set(r, refusal)
    return !refusal
  })
  if (ready.length === 0) return results
  try {
    const out = await build({ ...buildOptions(ready, options, guard), absWorkingDir: cwd })
    const context = { guard, warnings: out.warnings, cwd }
    for (const [r, result] of collect(ready, out.outputFiles ?? [], out.metafile!, context)) results.set(r, result)
  } catch (error) {
    const errors = (error as { errors?: Message[] }).errors
    if (!errors) throw error
    if (ready.length === 1) results.set(ready[0]!, failed(ready[0]!, errors, cwd))
    else
      for (const part of await Promise.all(ready.map((r) => bundleModules([r], options, reads))))
        for (const [r, v] of part) results.set(r, v)
  }
  return results
}

/**
 * esbuild's cost and memory grow faster than the number of entry points of one build: modules are
 * bundled in batches, a few at a time, and transforms are capped in flight. The caps hold across
 * every `bundle` call of one bundler: the compiler hands over each slice of validated skills without
 * waiting for the last, and per-call caps let all of them run at once (memory at 10,000 skills).
 */
const MODULE_BATCH = 250
const BATCHES_IN_FLIGHT = 4
/** Bare functions per transform (see expressions.ts), and transforms in flight. */
const EXPRESSION_BATCH = 100
const TRANSFORMS_IN_FLIGHT = 8

/** The bundler's queues for esbuild calls. */
interface Queues {
  builds: <R>(fn: () => Promise<R>) => Promise<R>
  transforms: <R>(fn: () => Promise<R>) => Promise<R>
}

/**
 * Compiles the requests; `reads` gets the stamp and content digest of each file read here (so the cache need not read
 * it again).
 */
async function run(
  requests: readonly BundleRequest[],
  options: BrowserBundlerOptions,
  queues: Queues,
  reads: Reads,
): Promise<Map<BundleRequest, BundleResult>> {
  const hashes = reads.hashes
  const expressions = requests.filter((r) => !r.module)
  const loaders = [
    expressions.filter((r) => !isTypeScript(r.absPath)),
    expressions.filter((r) => isTypeScript(r.absPath)),
  ]
  const groups = loaders.flatMap((list) => chunk(list, EXPRESSION_BATCH))
  const batches = chunk(
    requests.filter((r) => r.module),
    MODULE_BATCH,
  )
  const [modules, compiled] = await Promise.all([
    Promise.all(batches.map((batch) => queues.builds(() => bundleModules(batch, options, reads)))),
    Promise.all(groups.map((group) => queues.transforms(() => transformExpressions(group, options, hashes)))),
  ])
  const results = new Map(modules.flatMap((m) => [...m]))
  for (const [i, group] of groups.entries()) for (const [k, r] of group.entries()) results.set(r, compiled[i]![k]!)
  return results
}

interface CacheEntry {
  key: string
  /** Every input with its stamp (cheap to compare) and content digest (compared when the stamp moved). */
  inputs: { path: string; stamp: string; hash: string }[]
  result: BundleResult
}

/** Inputs include packages' files, which may exceed a tool's limit: this one only bounds memory. */
const MAX_INPUT_BYTES = 256 * 1024 * 1024

function contentHash(path: string): string {
  const read = readRegularFile(path, MAX_INPUT_BYTES)
  return isReadFailure(read) ? 'missing' : contentDigest(read)
}

/** An input is unchanged when its stamp is, or else when its content still hashes the same. */
function unchanged(input: CacheEntry['inputs'][number]): boolean {
  const stamp = stampOf(input.path)
  if (stamp === input.stamp) return true
  if (contentHash(input.path) !== input.hash) return false
  input.stamp = stamp
  return true
}

/**
 * Compiles browser tools with esbuild into self-contained function source: bare functions by
 * transform, ES modules bundled in one call. Results are cached by the content of every input
 * (checked through file stamps first): an unchanged tool is never compiled again.
 */
export function createBrowserBundler(options: BrowserBundlerOptions): BrowserBundler {
  const cache = new Map<string, CacheEntry>()
  const queues: Queues = { builds: createLimiter(BATCHES_IN_FLIGHT), transforms: createLimiter(TRANSFORMS_IN_FLIGHT) }
  let compiled = 0
  const slot = (r: BundleRequest) => `${r.siteId}\0${r.tool}\0${r.absPath}`
  const keyOf = (r: BundleRequest) => `${r.realDir}\0${r.module}\0${options.minify}\0${options.sourcemap}`

  function cached(request: BundleRequest): BundleResult | undefined {
    const entry = cache.get(slot(request))
    return entry && entry.key === keyOf(request) && entry.inputs.every(unchanged) ? entry.result : undefined
  }

  function remember(
    request: BundleRequest,
    result: BundleResult,
    hashes: Map<string, string>,
    stamps?: StampLog,
  ): void {
    const inputs = result.inputs.map((path) => ({
      path,
      stamp: stamps?.get(path) ?? stampOf(path),
      hash: hashes.get(path) ?? contentHash(path),
    }))
    cache.set(slot(request), { key: keyOf(request), inputs, result })
  }

  return {
    get compiled() {
      return compiled
    },
    async bundle(requests, stamps) {
      const results = new Map<BundleRequest, BundleResult>()
      const hits = requests.map(cached)
      const misses = requests.filter((r, i) => {
        const hit = hits[i]
        if (hit) results.set(r, hit)
        return !hit
      })
      if (misses.length === 0) return results
      compiled += misses.length
      const reads: Reads = { stamps: stamps ?? new Map(), hashes: new Map() }
      const fresh = await run(misses, options, queues, reads)
      for (const r of misses) remember(r, fresh.get(r)!, reads.hashes, reads.stamps)
      for (const r of misses) results.set(r, fresh.get(r)!)
      return results
    },
  }
}
