import type { Diagnostic, DiagnosticCode, DiagnosticData } from '../compiler/diagnostics/catalog'
import type { Subject, ValueProblem } from '../compiler/diagnostics/messages'

/**
 * How the original validator (ego-lite's validateLearning) sees one of our findings, from its code
 * and data alone (never from our message, which the catalog may reword):
 * - `section`: the step of the original that makes it: 0 manifest, 1 id, 2 name, 3 domains, 4 notes,
 *   5 nodeTools schemas, 6 Node tool files, 7 browserTools schemas, 8 browser tool files, 9 the rest;
 * - `message`: the original's words (main's, also for the layouts only the 1.3 release line accepts),
 *   absent for a finding the original does not make (ours is used);
 * - `entry`: the manifest entry it is about, as the validator labels it (`nodeTools.search`,
 *   `nodeTools.search.args.q`), if any;
 * - `note`: the note it is about, to keep the original's order of the notes.
 */
export interface OriginalView {
  section: number
  message?: string
  entry?: string
  note?: string
}

type Views = { [C in DiagnosticCode]?: (data: DiagnosticData<C>) => OriginalView }

const q = (value: unknown) => JSON.stringify(value)
const TEMP_REF = 'contains temporary snapshot ref; use stable locators instead'
const PATHS = {
  nodeTools: 'path must be a relative tools/*.js path',
  browserTools: 'path must be a relative browser-tools/*.js path',
} as const
const MAP_SECTIONS = { nodeTools: 5, browserTools: 7 } as const
const ORIGINAL_LABELS = { note: 'note', node: 'Node tool', browser: 'browser tool' } as const
const VALUE_WORDS: Partial<Record<ValueProblem['field'], string>> = {
  schema: 'schema must be an object',
  required: 'required must be a boolean',
  description: 'description must be a non-empty string',
}

/**
 * The tool map a manifest label names: its first segment (`nodeTools.search.args.q`), as the
 * validator builds labels (`${map}.${name}...`). Undefined for any other label.
 */
function mapOf(label: string): keyof typeof MAP_SECTIONS | undefined {
  const head = label.split('.', 1)[0]
  return head === 'nodeTools' || head === 'browserTools' ? head : undefined
}

const labelSection = (label: string) => {
  const map = mapOf(label)
  return map ? MAP_SECTIONS[map] : 9
}

/** A finding whose text is `<entry>: ...`, in the section of the entry's tool map. */
const atEntry = (entry: string, message?: string): OriginalView => ({ section: labelSection(entry), entry, message })

/** `nodeTools.x: path must be a relative tools/*.js path` (the original has one message for every bad path). */
function toolPath(tool: string): OriginalView {
  const map = mapOf(tool)
  return atEntry(tool, map && `${tool}: ${PATHS[map]}`)
}

/** The section of a finding about a file, by the file it is about. */
function subjectView(subject: Subject, rest: string | undefined): OriginalView {
  switch (subject.kind) {
    case 'manifest':
      return { section: 0 }
    case 'note':
      return { section: 4, note: subject.name, message: rest && `note ${q(subject.name)}${rest}` }
    case 'node':
    case 'browser':
      return {
        section: subject.kind === 'node' ? 6 : 8,
        message: rest && `${ORIGINAL_LABELS[subject.kind]} ${q(subject.name)}${rest}`,
      }
    case 'import':
    case 'resolver':
      return { section: 8 }
    case 'fixture':
      return { section: 9 }
  }
}

const fileView = (d: { subject: Subject }) => subjectView(d.subject, undefined)
const domainView = (d: { pattern: string }): OriginalView => ({ section: 3, message: `invalid domain ${q(d.pattern)}` })

const VIEWS: Views = {
  'manifest-missing': () => ({ section: 0 }),
  'manifest-parse': () => ({ section: 0 }),
  'manifest-too-large': () => ({ section: 0 }),
  'manifest-not-object': (d) => ({
    section: 0,
    message: d.member === undefined ? 'manifest.json must contain a JSON object' : undefined,
  }),
  'id-mismatch': () => ({ section: 1, message: 'manifest id must match directory name' }),
  'name-invalid': () => ({ section: 2, message: 'name must be a non-empty string' }),
  'domains-invalid': (d) =>
    d.pattern === undefined
      ? { section: 3, message: 'domains must be a list of non-empty strings' }
      : domainView({ pattern: d.pattern }),
  'domains-empty': () => ({ section: 3, message: 'domains must not be empty' }),
  'domain-invalid': domainView,
  'domain-port': domainView,
  'domain-public-suffix': domainView,
  'note-path': (d) =>
    d.note === undefined
      ? { section: 4, message: 'notes must be a list of non-empty strings' }
      : { section: 4, note: d.note, message: `notes must point to notes/*.md: ${q(d.note)}` },
  'note-missing': (d) => ({ section: 4, note: d.note, message: d.directory ? undefined : `missing note ${q(d.note)}` }),
  'temp-ref': (d) => subjectView(d.subject, `: ${TEMP_REF}`),
  'file-not-regular': fileView,
  'file-unreadable': fileView,
  'file-too-large': fileView,
  'tool-map-invalid': (d) => ({
    section: labelSection(d.map),
    message: `${d.map} must be an object keyed by tool name`,
  }),
  'tool-name': (d) =>
    d.problem === 'both'
      ? { section: 9 }
      : {
          section: labelSection(d.map),
          message: d.problem === 'pattern' ? `${d.map} contains invalid tool name ${q(d.name)}` : undefined,
        },
  'tool-schema': (d) =>
    atEntry(
      d.tool,
      d.field === undefined && d.detail === undefined ? `${d.tool}: schema must be an object` : undefined,
    ),
  'tool-description': (d) => atEntry(d.tool, `${d.tool}: description must be a non-empty string`),
  'tool-path': (d) => toolPath(d.tool),
  'tool-callable': (d) => atEntry(d.tool, `${d.tool}: callable must be a non-empty string`),
  'args-invalid': (d) =>
    atEntry(
      d.tool,
      'argName' in d
        ? `${d.tool}: args contains invalid argument name ${q(d.argName)}`
        : `${d.tool}: args must be an object`,
    ),
  'arg-schema': (d) => atEntry(d.at, originalValueProblem(d.at, d.problem)),
  'returns-invalid': (d) =>
    'at' in d
      ? atEntry(d.at, originalValueProblem(d.at, d.problem))
      : atEntry(d.tool, `${d.tool}: returns must be an object`),
  'tool-file-missing': (d) => ({
    section: d.kind === 'node' ? 6 : 8,
    message: d.directory ? undefined : `missing ${ORIGINAL_LABELS[d.kind]} file ${q(d.path)} for tool ${q(d.tool)}`,
  }),
  'tool-callable-missing': (d) => ({
    section: 6,
    message: `missing Node callable ${q(d.callable)} for tool ${q(d.tool)}`,
  }),
  'tool-parse': (d) => {
    if (d.problem === 'node-syntax') return { section: 6, message: `cannot import Node tool ${q(d.path)}: ${d.reason}` }
    if (d.problem === 'syntax') return { section: 8, message: `cannot parse ${q(d.path)}: ${d.reason}` }
    if (d.problem === 'shape' && 'found' in d)
      return { section: 8, message: `${q(d.path)} must contain a single function expression` }
    return { section: 8 }
  },
  'path-escape': (d) => {
    switch (d.via) {
      case 'manifest':
      case 'package-skill':
        return { section: 0 }
      case 'note':
        return { section: 4, note: d.note, message: `notes must point to notes/*.md: ${q(d.note)}` }
      case 'tool-path':
        return toolPath(d.tool)
      case 'fixture':
        return atEntry(d.example)
      case 'import':
        return { section: 8 }
      case 'symlink':
        // A note, a browser tool or a Node tool that is a symlink out of the folder.
        if (d.file.endsWith('.md')) return { section: 4, note: d.file }
        return { section: d.file.includes('browser-tools/') ? 8 : 6 }
    }
  },
  'example-invalid': (d) => atEntry(d.example),
  'example-args': (d) => atEntry(d.example),
  'example-fixture': (d) => atEntry(d.example),
  'example-url': (d) => atEntry(d.example),
  'token-budget': (d) => atEntry(d.subject),
  'token-budget-invalid': (d) => atEntry(d.at),
  'compat-ego-lite': (d) => ('tool' in d ? atEntry(d.tool) : { section: d.problem === 'bom' ? 0 : 9 }),
}

/** A value schema problem in the original's words, for the problems it checks. */
function originalValueProblem(at: string, problem: ValueProblem): string | undefined {
  if (problem.field === 'type') return `${at}: invalid ${problem.role} type ${q(problem.given) ?? 'undefined'}`
  const words = VALUE_WORDS[problem.field]
  return words && `${at}: ${words}`
}

/** How the original sees a finding (see OriginalView); a code it has no step for comes last, in our words. */
export function originalView(d: Diagnostic): OriginalView {
  const view = VIEWS[d.code] as ((data: Diagnostic['data']) => OriginalView) | undefined
  return view ? view(d.data) : { section: 9 }
}
