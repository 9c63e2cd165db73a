import { execFile } from 'node:child_process'
import { mkdir, mkdtemp, readFile, rm, symlink, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { pathToFileURL } from 'node:url'
import ts from 'typescript'
import { generateDts } from '../src/codegen/dts'
import { createCompiler } from '../src/compiler/compile'
import { generateSkills, skillId } from './generate'
import { Samples, rounds, summarize } from './stats'
import { type Figure, formatValue } from './table'
import { positionOf, startLanguageServer } from '../test/helpers/lsp'

const REPO = resolve(import.meta.dirname, '..')
/** The registry a consumer is checked against at the small end. */
const SMALL_SKILLS = 10
/** The registry at the large end (issue #29, goal 7: from 10 to 10,000 skills). */
const BIG_SKILLS = 10_000
/** The goal: type-checking and a completion at a tool argument at most this many times the 10-skill figure. */
const GOAL_RATIO = 1.3
/** Completions timed per editor session, each after an edit of the consumer file. */
const EDITS = 5
/** Calls in the consumer file: half `runTool`, half `sites[...]`, over the first ten sites. */
const CALLS = 100
/** The README's tsconfig, without the editor plugin (what TypeScript 7's language server sees). */
const TSCONFIG = {
  compilerOptions: {
    target: 'ES2022',
    module: 'ESNext',
    moduleResolution: 'Bundler',
    strict: true,
    skipLibCheck: true,
    noEmit: true,
    types: ['unplugin-site-skills/client'],
  },
  include: ['*.ts'],
}

const ms = (value: number) => formatValue(value, 'ms')

const TSC = {
  6: join(REPO, 'node_modules/typescript/bin/tsc'),
  7: join(REPO, 'node_modules/typescript-7/bin/tsc'),
} as const

function consumer(): string {
  const lines = ["import { runTool, sites } from 'virtual:site-skills'"]
  for (let k = 0; k < CALLS / 2; k++) {
    const site = JSON.stringify(skillId((k % SMALL_SKILLS) + 1))
    lines.push(`void runTool(${site}, 'search_items', { query: 'q${k}', sort: 'newest' })`)
    lines.push(`void sites[${site}].get_item({ id: '${k}', fields: ['title'] })`)
  }
  // Where an editor completes a tool argument's name: after the first argument of a runTool call.
  lines.push(`void runTool(${JSON.stringify(skillId(1))}, 'search_items', { query: 'q',  })`)
  return `${lines.join('\n')}\n`
}

interface TypesProject {
  dir: string
  dtsBytes: number
  manifestBytes: number
  generateMs: number
}

/**
 * A consumer project over `n` generated skills: the d.ts as `site-skills types` writes it, the package linked in.
 * It lives outside the repository, as a user's project does: inside it (the package's own folder, through the
 * link), TypeScript 7's language server counts the d.ts among the package's files for auto-imports and parses it
 * again after edits, which no user's project pays.
 */
async function createProject(n: number, parent: string): Promise<TypesProject> {
  const root = await generateSkills(n)
  const dir = join(parent, `types-${n}`)
  await mkdir(join(dir, 'node_modules'), { recursive: true })
  await symlink(REPO, join(dir, 'node_modules/unplugin-site-skills'))
  const { skills } = await createCompiler({ roots: [root], checkOnly: true }).compile()
  const dtsFile = join(dir, 'site-skills.d.ts')
  const started = performance.now()
  const dts = generateDts(skills, dtsFile)
  const generateMs = performance.now() - started
  await writeFile(dtsFile, dts)
  await writeFile(join(dir, 'tsconfig.json'), JSON.stringify(TSCONFIG, null, 2))
  await writeFile(join(dir, 'use.ts'), consumer())
  const manifests = await Promise.all(skills.map((s) => readFile(join(s.model.dir, 'manifest.json'))))
  const manifestBytes = manifests.reduce((sum, b) => sum + b.length, 0)
  return { dir, dtsBytes: Buffer.byteLength(dts), manifestBytes, generateMs }
}

/** What `tsc --extendedDiagnostics` says it spent (ms), and how many type instantiations it made. */
interface TscRun {
  total: number
  check: number
  instantiations: number
}

const figure = (out: string, name: string) => Number(new RegExp(`^${name}:\\s+([\\d.]+)`, 'm').exec(out)?.[1] ?? NaN)

/** `tsc -p DIR` with TypeScript `major`; rejects on any error it reports. */
function runTsc(major: keyof typeof TSC, dir: string): Promise<TscRun> {
  return new Promise((done, fail) => {
    const args = [TSC[major], '-p', dir, '--pretty', 'false', '--extendedDiagnostics']
    execFile(process.execPath, args, (error, stdout) => {
      if (error) fail(new Error(`tsc ${major} in ${dir}: ${stdout.split('\n').slice(0, 3).join(' ')}`))
      const seconds = (name: string) => figure(stdout, name) * 1000
      done({
        total: seconds('Total time'),
        check: seconds('Check time'),
        instantiations: figure(stdout, 'Instantiations'),
      })
    })
  })
}

/** The consumer's text after the `k`th edit (a comment at its end), and where its tool argument is completed. */
const ARGUMENT_AT = "{ query: 'q',  })"
const edited = (text: string, k: number) => `${text}// edit ${k}\n`

/**
 * The argument names an editor offers there: the search_items tool's, less `query`, which is written,
 * and the runtime's `cursor` of a paged result.
 */
const EXPECTED_ARGUMENTS = JSON.stringify(['cursor', 'maxResults', 'sort'])
const namesOf = (names: string[] | undefined) => JSON.stringify(names?.slice().sort())

/**
 * A completion at a tool argument with TypeScript 6's language service, as an editor asks for it
 * while typing: each of `EDITS` edits of the consumer makes a new program (the d.ts is reused from
 * the document registry, the checker is new), then the completion is timed. The median edit's time.
 */
function completionSession(dir: string): number {
  const file = join(dir, 'use.ts')
  const base = ts.sys.readFile(file) ?? ''
  let version = 0
  let text = base
  const parsed = ts.parseJsonConfigFileContent(TSCONFIG, ts.sys, dir)
  // The other files' snapshots are kept, as tsserver keeps a file it has read until it changes: read again after
  // each edit, the 48 MB d.ts alone would take most of a completion's time.
  const snapshots = new Map<string, ts.IScriptSnapshot | undefined>()
  const snapshotOf = (f: string) => {
    if (!snapshots.has(f)) {
      const content = ts.sys.readFile(f)
      snapshots.set(f, content === undefined ? undefined : ts.ScriptSnapshot.fromString(content))
    }
    return snapshots.get(f)
  }
  const host: ts.LanguageServiceHost = {
    getScriptFileNames: () => parsed.fileNames,
    getScriptVersion: (f) => (f === file ? String(version) : '1'),
    getScriptSnapshot: (f) => (f === file ? ts.ScriptSnapshot.fromString(text) : snapshotOf(f)),
    getCurrentDirectory: () => dir,
    getCompilationSettings: () => parsed.options,
    getDefaultLibFileName: ts.getDefaultLibFilePath,
    fileExists: ts.sys.fileExists,
    readFile: ts.sys.readFile,
    readDirectory: ts.sys.readDirectory,
    directoryExists: ts.sys.directoryExists,
    getDirectories: ts.sys.getDirectories,
    realpath: ts.sys.realpath,
  }
  const service = ts.createLanguageService(host, ts.createDocumentRegistry())
  // The project loaded as an editor has it when the user starts typing.
  service.getSemanticDiagnostics(file)
  const times: number[] = []
  for (let k = 1; k <= EDITS; k++) {
    version = k
    text = edited(base, k)
    const started = performance.now()
    const completions = service.getCompletionsAtPosition(file, text.indexOf(ARGUMENT_AT) + ARGUMENT_AT.length - 3, {})
    times.push(performance.now() - started)
    const names = completions?.entries.filter((e) => e.kind === ts.ScriptElementKind.memberVariableElement)
    if (namesOf(names?.map((e) => e.name)) !== EXPECTED_ARGUMENTS)
      throw new Error(`completion at a tool argument in ${dir}: ${namesOf(names?.map((e) => e.name))}`)
  }
  service.dispose()
  return summarize(times).median
}

/** The same completion from TypeScript 7's language server (`tsc --lsp --stdio`), after each of `EDITS` edits. */
async function completionSession7(dir: string): Promise<number> {
  const file = join(dir, 'use.ts')
  const base = await readFile(file, 'utf8')
  const server = await startLanguageServer(TSC[7], dir)
  const textDocument = { uri: pathToFileURL(file).href }
  type Item = { label: string; kind?: number }
  const complete = async (text: string) => {
    const list = await server.request<{ items: Item[] } | Item[]>('textDocument/completion', {
      textDocument,
      position: positionOf(text, ARGUMENT_AT, ARGUMENT_AT.length - 3),
    })
    // LSP's CompletionItemKind.Field (5) and Property (10): the object's members.
    // It labels an optional member `name?`.
    const names = (Array.isArray(list) ? list : list.items)
      .filter((i) => i.kind === 5 || i.kind === 10)
      .map((i) => ({ ...i, label: i.label.replace(/\?$/, '') }))
    if (namesOf(names.map((i) => i.label)) !== EXPECTED_ARGUMENTS)
      throw new Error(`TypeScript 7 completion in ${dir}: ${namesOf(names.map((i) => i.label))}`)
  }
  try {
    server.open(file)
    // The first answer waits for the project to load; an editor has it loaded when the user types.
    await complete(base)
    const times: number[] = []
    for (let k = 1; k <= EDITS; k++) {
      const text = edited(base, k)
      server.change(file, text, k + 1)
      const started = performance.now()
      await complete(text)
      times.push(performance.now() - started)
    }
    return summarize(times).median
  } finally {
    await server.close()
  }
}

/** An editor's first answers in the consumer: its errors, a hover on a runTool call, tool completions. */
function editorSession(dir: string): number {
  const file = join(dir, 'use.ts')
  const text = ts.sys.readFile(file) ?? ''
  const parsed = ts.parseJsonConfigFileContent(TSCONFIG, ts.sys, dir)
  const host: ts.LanguageServiceHost = {
    getScriptFileNames: () => parsed.fileNames,
    getScriptVersion: () => '1',
    getScriptSnapshot: (f) => {
      const content = ts.sys.readFile(f)
      return content === undefined ? undefined : ts.ScriptSnapshot.fromString(content)
    },
    getCurrentDirectory: () => dir,
    getCompilationSettings: () => parsed.options,
    getDefaultLibFileName: ts.getDefaultLibFilePath,
    fileExists: ts.sys.fileExists,
    readFile: ts.sys.readFile,
    readDirectory: ts.sys.readDirectory,
    directoryExists: ts.sys.directoryExists,
    getDirectories: ts.sys.getDirectories,
    realpath: ts.sys.realpath,
  }
  const started = performance.now()
  const service = ts.createLanguageService(host, ts.createDocumentRegistry())
  const errors = service.getSemanticDiagnostics(file)
  const hover = service.getQuickInfoAtPosition(file, text.indexOf('runTool(') + 2)
  const completions = service.getCompletionsAtPosition(file, text.indexOf("'search_items'") + 1, {})
  const ms = performance.now() - started
  service.dispose()
  if (errors.length || !hover || !completions?.entries.length)
    throw new Error(`editor session in ${dir}: ${errors.length} errors, hover ${Boolean(hover)}`)
  return ms
}

/**
 * The generated d.ts at 10,000 skills: its size, and what it costs tsc (TypeScript 6 and 7) and an
 * editor against the same consumer at 10 skills.
 */
export async function runTypesBench({ runs }: { runs: number }): Promise<Figure[]> {
  const parent = await mkdtemp(join(tmpdir(), 'site-skills-bench-types-'))
  try {
    return await measureTypes(runs, await createProject(BIG_SKILLS, parent), await createProject(SMALL_SKILLS, parent))
  } finally {
    await rm(parent, { recursive: true, force: true })
  }
}

/** The figures of `runTypesBench`, both projects measured in the same rounds. */
async function measureTypes(runs: number, big: TypesProject, small: TypesProject): Promise<Figure[]> {
  const samples = new Samples()
  const measures: Record<string, () => Promise<number>> = {}
  const instantiations: Record<string, number> = {}
  for (const [label, project] of [
    ['big', big],
    ['small', small],
  ] as const) {
    for (const major of [6, 7] as const) {
      measures[`tsc${major}-${label}`] = async () => {
        const run = await runTsc(major, project.dir)
        samples.add(`tsc${major}-${label}-total`, run.total)
        instantiations[`tsc${major}-${label}`] = run.instantiations
        return run.check
      }
    }
    measures[`editor-${label}`] = async () => editorSession(project.dir)
    measures[`complete6-${label}`] = async () => completionSession(project.dir)
    measures[`complete7-${label}`] = () => completionSession7(project.dir)
  }
  await rounds(runs, measures, samples)
  const n = BIG_SKILLS.toLocaleString('en-US')
  const goal = (key: string) => ({
    text: `at most ${GOAL_RATIO}x from ${SMALL_SKILLS} to ${n} skills`,
    met: samples.ratio(`${key}-big`, `${key}-small`).median <= GOAL_RATIO,
  })
  const vs = (what: string, key: string, goaled = false): Figure => ({
    bench: 'types',
    name: `${what}, ${n} vs ${SMALL_SKILLS} skills (${CALLS} calls)`,
    subject: { label: n, unit: 'ms', value: samples.get(`${key}-big`) },
    baseline: { label: String(SMALL_SKILLS), unit: 'ms', value: samples.get(`${key}-small`) },
    ratio: samples.ratio(`${key}-big`, `${key}-small`),
    ratioText: `the ${SMALL_SKILLS}-skill run`,
    ...(goaled ? { goal: goal(key) } : {}),
    notes: samples.has(`${key}-big-total`)
      ? [
          `total ${ms(samples.get(`${key}-big-total`).median)} vs ${ms(samples.get(`${key}-small-total`).median)} ` +
            `(parsing the libraries and the d.ts included); ${instantiations[`${key}-big`]} vs ` +
            `${instantiations[`${key}-small`]} type instantiations; times as tsc --extendedDiagnostics reports them`,
        ]
      : undefined,
  })
  return [
    {
      bench: 'types',
      name: `generated d.ts, ${n} skills vs their manifests`,
      subject: { label: 'd.ts', unit: 'bytes', value: summarize([big.dtsBytes]) },
      baseline: { label: 'manifests', unit: 'bytes', value: summarize([big.manifestBytes]) },
      ratio: summarize([big.dtsBytes / big.manifestBytes]),
      ratioText: 'the manifests',
      notes: [
        `${formatValue(big.dtsBytes / BIG_SKILLS, 'bytes')} per skill (4 tools each); generated in ${formatValue(big.generateMs, 'ms')}`,
      ],
    },
    vs('tsc --noEmit check time, TypeScript 6', 'tsc6', true),
    vs('tsc --noEmit check time, TypeScript 7', 'tsc7', true),
    vs('completion at a tool argument after an edit, TypeScript 6 language service', 'complete6', true),
    vs('completion at a tool argument after an edit, TypeScript 7 language server (tsc --lsp)', 'complete7', true),
    vs('editor (TypeScript 6 language service): errors, a hover and completions', 'editor'),
  ]
}
