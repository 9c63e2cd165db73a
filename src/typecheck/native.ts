import type { ChildProcess } from 'node:child_process'
import { once } from 'node:events'
import { join } from 'node:path'
import type { Diagnostic, Project, Snapshot } from 'typescript-7/unstable/async'
import { toPosix } from '../compiler/fs/paths'
import type { TypeScriptBackend, TypeScriptError, DeclarationPlace, ProgramInput } from './backend'

/** TypeScript 7's `typescript/unstable/async` module, as much of it as `check` uses. */
export type NativeTypeScript = typeof import('typescript-7/unstable/async')

/** The config the program is opened from: it exists only in the answers `check` gives the compiler. */
const CONFIG_NAME = '__site-skills-check__.json'

/**
 * How long the compiler may take to end once closed. One that hangs would hold the process (its
 * `close` waits for answers, and a live child keeps Node running): past this it is killed.
 */
const CLOSE_GRACE_MS = 2000

/** A declaration file, as TypeScript names them (`.d.ts`, `.d.mts`, `.d.cts`, `.d.json.ts`). */
const DECLARATION_RE = /\.d\.(?:[cm]?ts|[^/.]+\.ts)$/

/** The message with its chain of reasons one per line, each level indented two spaces (as TypeScript 5/6 print it). */
function flatten(d: Pick<Diagnostic, 'text' | 'messageChain'>, depth = 0): string {
  let text = depth ? `\n${'  '.repeat(depth)}${d.text}` : d.text
  for (const next of d.messageChain ?? []) text += flatten(next, depth + 1)
  return text
}

function toError(d: Diagnostic): TypeScriptError {
  const message = flatten(d)
  return d.fileName ? { file: toPosix(d.fileName), start: d.pos, code: d.code, message } : { code: d.code, message }
}

async function ownFiles(project: Project): Promise<string[]> {
  const names = (await project.program.getSourceFileNames()).filter((f) => !DECLARATION_RE.test(f))
  const metadata = await Promise.all(names.map((f) => project.program.getSourceFileMetadata(f)))
  return names.filter((_, i) => metadata[i] && !metadata[i].isFromExternalLibrary).map(toPosix)
}

async function declarationAt(
  ts: NativeTypeScript,
  project: Project,
  file: string,
  offset: number,
): Promise<DeclarationPlace | undefined> {
  let symbol = await project.checker.getSymbolAtPosition(file, offset)
  if (symbol && symbol.flags & ts.SymbolFlags.Alias) symbol = await project.checker.getAliasedSymbol(symbol)
  const node = await symbol?.declarations[0]?.resolve(project)
  if (!node) return undefined
  const name = (node as { name?: typeof node }).name
  return { file: toPosix(node.getSourceFile().fileName), start: (name ?? node).getStart() }
}

async function errorsOf(ts: NativeTypeScript, project: Project, own: ReadonlySet<string>): Promise<TypeScriptError[]> {
  const { program } = project
  const [config, options, syntax, semantic, global] = await Promise.all([
    program.getConfigFileParsingDiagnostics(),
    program.getProgramDiagnostics(),
    program.getSyntacticDiagnostics(),
    program.getSemanticDiagnostics(),
    program.getGlobalDiagnostics(),
  ])
  const inOwn = (d: Diagnostic) => d.fileName !== undefined && own.has(toPosix(d.fileName))
  return [...config, ...options, ...global, ...syntax.filter(inOwn), ...semantic.filter(inOwn)]
    .filter((d) => d.category === ts.DiagnosticCategory.Error)
    .map(toError)
}

/**
 * TypeScript 7, driven through its `unstable/async` API: one compiler process for the whole run
 * (`--watch` included), reading the program's config and the stand-in texts from here.
 */
export function createNativeBackend(
  ts: NativeTypeScript,
  version: string,
  projectDir: string,
  json: Record<string, unknown>,
): TypeScriptBackend {
  const configFile = toPosix(join(projectDir, CONFIG_NAME))
  let texts = new Map<string, string>()
  const api = new ts.API({
    cwd: projectDir,
    fs: {
      readFile: (f) => texts.get(toPosix(f)),
      fileExists: (f) => (texts.has(toPosix(f)) ? true : undefined),
    },
  })
  let last: Snapshot | undefined
  async function check(input: ProgramInput) {
    texts = new Map(input.texts)
    texts.set(configFile, JSON.stringify({ compilerOptions: json, files: input.rootNames }))
    const update = last ? { fileChanges: { invalidateAll: true as const } } : { openProjects: [configFile] }
    const snapshot = await api.updateSnapshot(update)
    await last?.dispose()
    last = snapshot
    const project = snapshot.getProject(configFile)
    if (!project) throw new Error(`TypeScript ${version} opened no project for ${configFile}`)
    const files = await ownFiles(project)
    const errors = await errorsOf(ts, project, new Set(files))
    return { errors, files, declarationAt: (file: string, offset: number) => declarationAt(ts, project, file, offset) }
  }
  return { version, check, close: () => closeWithin(api, CLOSE_GRACE_MS) }
}

const running = (child: ChildProcess) => child.exitCode === null && child.signalCode === null

/**
 * Closes the API, and kills its compiler process if it has not ended within `ms`. The process is
 * where this API keeps it (`unstable`: when it is not there, closing is all that is done).
 */
async function closeWithin(api: InstanceType<NativeTypeScript['API']>, ms: number): Promise<void> {
  const child = (api as unknown as { client?: { process?: ChildProcess } }).client?.process
  const closed = api.close().catch(() => undefined)
  const ended = child && running(child) ? once(child, 'exit').catch(() => undefined) : undefined
  let timer: ReturnType<typeof setTimeout> | undefined
  const late = new Promise<void>((resolve) => (timer = setTimeout(resolve, ms)))
  await Promise.race([Promise.all([closed, ended]), late])
  clearTimeout(timer)
  if (child && running(child)) child.kill('SIGKILL')
}
