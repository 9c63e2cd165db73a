import {
  type DomainReason,
  type Subject,
  type ValueProblem,
  domainHint,
  domainReason,
  quoteName,
  type NameCharacter,
  describeCharacter,
  subjectLabel,
  valueProblem,
} from './messages'
import {
  type ExampleArgsData,
  type ExampleFixtureData,
  type ExampleInvalidData,
  type ExampleUrlData,
  type FixtureHeaderData,
  exampleArgsMessage,
  exampleFixtureMessage,
  exampleInvalidMessage,
  exampleUrlMessage,
  fixtureHeaderHint,
  fixtureHeaderMessage,
} from './example-messages'
import { type SlowShape, slowHint, slowReason } from './url-messages'

type Severity = 'error' | 'warning'

/** One code's entry: severity, title, general hint, and how a finding's data becomes its message. */
export interface CatalogEntry<D> {
  severity: Severity
  title: string
  /** The hint shown unless `hintFor` says something finer; the one docs/codes.md lists. */
  hint: string
  message: (data: D) => string
  /** A hint for this finding alone (naming the value to write), or undefined for `hint`. */
  hintFor?: (data: D) => string | undefined
}

/** The data of a code whose message never varies. */
export type NoData = Record<string, never>

const q = (value: unknown) => JSON.stringify(value)
/** Up to five paths, quoted, and how many more. */
const fileList = (files: readonly string[]) =>
  files.length > 5 ? `${files.slice(0, 5).map(q).join(', ')} and ${files.length - 5} more` : files.map(q).join(', ')
const entry = <D = NoData>(e: CatalogEntry<D>): CatalogEntry<D> => e
const SYMLINK_OUT = 'resolves outside the skill folder (a symlink leads out of it)'
const NOT_ONE_FUNCTION = 'must contain a single function expression'
const NODE_HINT = 'A Node tool is an ES module: export async function name(ctx, args) { ... }.'
const TOOL_PATH_WORDS = {
  empty: 'path must be a non-empty string',
  backslash: 'path must use forward slashes',
  node: 'path must be tools/*.js, tools/*.mjs or tools/*.ts (or <product>/functions.js, .mjs, .ts)',
  browser: 'path must be browser-tools/*.js or browser-tools/*.ts',
} as const

type ToolNameData =
  | { problem: 'pattern'; map: string; name: string }
  | { problem: 'both'; name: string }
  | ({ problem: 'invisible'; map: string; name: string } & NameCharacter)
type ToolParseData =
  | { problem: 'node-syntax' | 'syntax'; path: string; reason: string }
  /** A bare browser tool holding something else than one function (`found`), or more (`follows`). */
  | { problem: 'shape'; path: string; found: string; script?: boolean }
  | { problem: 'shape'; path: string; follows: string }
  | { problem: 'no-default'; path: string }
  | { problem: 'default-not-function'; path: string; found?: string }
  | { problem: 'bundle'; tool: string; reason: string }
  | { problem: 'import-meta'; tool: string }
type PathEscapeData =
  | { via: 'manifest' }
  | { via: 'symlink'; file: string }
  | { via: 'note'; note: string }
  | { via: 'tool-path'; tool: string }
  | { via: 'fixture'; example: string }
  | { via: 'import'; tool: string; file: string }
  /** A skill folder of a skill package that is a symlink to outside the package. */
  | { via: 'package-skill'; package: string }
type UrlPatternData =
  | { at: string; problem: 'shape' }
  | { at: string; problem: 'slash' | 'invalid'; pattern: string; reason?: string }
  | ({ at: string; problem: 'slow'; pattern: string } & SlowShape)

function urlPatternMessage(d: UrlPatternData): string {
  if (d.problem === 'shape') return `${d.at} must be a non-empty list of non-empty strings`
  if (d.problem === 'slash') return `${d.at}: URL pattern ${q(d.pattern)} must start with "/" (it matches the pathname)`
  if (d.problem === 'slow')
    return `${d.at}: URL pattern ${q(d.pattern)} cannot be matched in time linear in the path: ${slowReason(d)}`
  return `${d.at}: invalid URL pattern ${q(d.pattern)}${d.reason ? ` (${d.reason})` : ''}`
}
type CompatData = { problem: 'bom' | 'symlink' } | { problem: 'extension' | 'module'; tool: string }
/** Where the documentation says how to write examples and fixtures (hints name it: the package does not ship docs/). */
const EXAMPLES_PAGE = 'https://github.com/site-skills/unplugin-site-skills/blob/main/docs/examples.md'

/** An error in a tool's `examples`: docs/examples.md says how to write one. */
const exampleError = <D>(title: string, hint: string, message: (data: D) => string) =>
  entry<D>({ severity: 'error', title, hint, message })
type FileData = { subject: Subject; reason: string }
/** A file's error: the file, and why it cannot be read as it is. */
const fileError = (title: string, hint: string) =>
  entry<FileData>({
    severity: 'error',
    title,
    hint,
    message: ({ subject, reason }) => `${subjectLabel(subject)} ${reason}`,
  })

function toolParseMessage(d: ToolParseData): string {
  switch (d.problem) {
    case 'node-syntax':
      return `cannot parse Node tool ${q(d.path)}: ${d.reason}`
    case 'syntax':
      return `cannot parse ${q(d.path)}: ${d.reason}`
    case 'shape':
      return 'follows' in d
        ? `${q(d.path)} ${NOT_ONE_FUNCTION}; code follows the function: ${d.follows}`
        : `${q(d.path)} ${NOT_ONE_FUNCTION}, found ` +
            `${d.found}${d.script ? ': wrap the code in async function (args) { ... }' : ''}`
    case 'no-default':
      return `${q(d.path)} must export a default function`
    case 'default-not-function':
      return `the default export of ${q(d.path)} must be a function${d.found ? `, ${d.found}` : ''}`
    case 'bundle':
      return `browser tool ${q(d.tool)}: ${d.reason}`
    case 'import-meta':
      return (
        `browser tool ${q(d.tool)} uses import.meta, which only a module has: a browser tool runs as a ` +
        `function in the page`
      )
  }
}

function pathEscapeMessage(d: PathEscapeData): string {
  switch (d.via) {
    case 'manifest':
      return `manifest.json ${SYMLINK_OUT}`
    case 'symlink':
      return `${q(d.file)} ${SYMLINK_OUT}`
    case 'note':
      return `notes must point to notes/*.md or <product>/prompt.md: ${q(d.note)}`
    case 'tool-path':
      return `${d.tool}: path must stay inside the skill folder`
    case 'fixture':
      return `${d.example}: fixture must stay inside the skill folder`
    case 'import':
      return `browser tool ${q(d.tool)} imports ${q(d.file)}, which is outside the skill folder`
    case 'package-skill':
      return `this skill folder of package ${q(d.package)} is a symlink to outside the package: it is not served`
  }
}

function toolNameMessage(d: ToolNameData): string {
  if (d.problem === 'both') return `tool name ${q(d.name)} is declared in both nodeTools and browserTools`
  if (d.problem === 'invisible') return `${d.map} contains tool name ${quoteName(d.name)} with ${describeCharacter(d)}`
  return `${d.map} contains invalid tool name ${q(d.name)}`
}

const COMPAT_WORDS = {
  bom: 'manifest.json starts with a byte order mark, which ego-lite cannot parse',
  symlink: 'the skill folder is a symlink, which ego-lite does not see',
} as const

function compatMessage(d: CompatData): string {
  if (d.problem === 'extension') return `${d.tool}: ego-lite loads only .js tool files`
  if (d.problem === 'module') return `${d.tool}: ego-lite needs a bare function expression, not an ES module`
  return COMPAT_WORDS[d.problem]
}

/**
 * The catalog of every diagnostic code. Codes are permanent: add new ones, never rename. Each entry
 * holds the wording of its findings: call sites pass only the data (`message(data)`, `hintFor(data)`).
 */
export const DIAGNOSTIC_CATALOG = {
  'root-missing': entry<{ root: string; error?: string }>({
    severity: 'error',
    title: 'Root not found',
    hint: 'Create the folder or pass another --root.',
    message: (d) => (d.error ? `cannot read root ${q(d.root)}: ${d.error}` : `root ${q(d.root)} does not exist`),
  }),
  'package-missing': entry<{ name: string; from: string }>({
    severity: 'error',
    title: 'Skill package not installed',
    hint: 'Install the package (npm i -D NAME), or write ./NAME for a folder of that name.',
    message: (d) => `package ${q(d.name)} is not installed (looked in node_modules from ${q(d.from)} up)`,
    hintFor: (d) => `Install the package (npm i -D ${d.name}), or write ./${d.name} for a folder of that name.`,
  }),
  'package-invalid': entry<{ name: string; reason: string }>({
    severity: 'error',
    title: 'Package is no skill package',
    hint: 'A skill package names its folder of skill folders in package.json: "siteSkills": { "root": "learnings" }.',
    message: (d) => `package ${q(d.name)}: ${d.reason}`,
  }),
  'secret-found': entry<{ rule: string; what: string }>({
    severity: 'error',
    title: 'Secret in a packed file',
    hint:
      'Replace the value with a placeholder (in a fixture or recording: save the page logged out, or edit the ' +
      'value), rotate it if it was real, then pack again. Nothing was written.',
    message: (d) => `${d.what} (${d.rule})`,
  }),
  'pack-file': entry<{ reason: string }>({
    severity: 'error',
    title: 'File cannot be packed',
    hint:
      'A pack holds regular files inside the skill folder: replace the file, or move it out of the skill. ' +
      'Nothing was written.',
    message: (d) => `cannot be packed: it ${d.reason}`,
  }),
  'manifest-missing': entry<{ directory: boolean }>({
    severity: 'error',
    title: 'No manifest.json',
    hint: 'Every skill folder needs a manifest.json. Prefix a folder with "_" to keep it out of the skills.',
    message: (d) => (d.directory ? 'manifest.json is a directory, not a file' : 'no manifest.json in this folder'),
  }),
  'manifest-parse': entry<{ reason: string }>({
    severity: 'error',
    title: 'Manifest is not valid JSON',
    hint: 'manifest.json is strict JSON: no comments, no trailing commas, double-quoted keys.',
    message: (d) => `invalid JSON: ${d.reason}`,
  }),
  'manifest-too-large': entry<{ size: number; limit: number }>({
    severity: 'error',
    title: 'Manifest too large',
    hint: 'A manifest describes tools; keep data in notes or tool files.',
    message: (d) => `manifest.json is ${d.size} bytes; the limit is ${d.limit}`,
  }),
  'skill-unreadable': entry<{ reason: string }>({
    severity: 'error',
    title: 'Skill cannot be read',
    hint:
      'A file of this skill could not be read (a name too long, a symlink loop, a folder that may not be ' +
      'searched, or an I/O error); the other skills are not affected.',
    message: (d) => `cannot read the skill: ${d.reason}`,
  }),
  'manifest-not-object': entry<{ member?: string }>({
    severity: 'error',
    title: 'Manifest is not an object',
    hint: 'The top level of manifest.json must be { ... }.',
    message: (d) => (d.member === undefined ? 'manifest.json must contain a JSON object' : `invalid ${d.member}`),
  }),
  'manifest-duplicate-key': entry<{ key: unknown }>({
    severity: 'warning',
    title: 'Duplicate key',
    hint: 'JSON keeps only the last of duplicate keys; remove the others.',
    message: (d) => `duplicate key ${q(d.key)}; only the last one counts`,
  }),
  'id-mismatch': entry<{ folder?: string }>({
    severity: 'error',
    title: 'Id does not match the folder',
    hint: 'Set "id" to the folder name.',
    message: () => 'manifest id must match directory name',
    hintFor: (d) => (d.folder === undefined ? undefined : `Set "id" to ${q(d.folder)}.`),
  }),
  'duplicate-id': entry<{ id: string; where: string }>({
    severity: 'error',
    title: 'Duplicate skill id',
    hint: 'Two roots hold a skill with this id; rename or remove one.',
    message: (d) => `skill id ${q(d.id)} is already used by the skill in ${q(d.where)}`,
  }),
  'name-invalid': entry({
    severity: 'error',
    title: 'Invalid name',
    hint: 'Give the site a human-readable "name".',
    message: () => 'name must be a non-empty string',
  }),
  'domains-invalid': entry<{ pattern?: string }>({
    severity: 'error',
    title: 'Invalid domains list',
    hint: 'Use "domains": ["example.com", "*.example.com"].',
    message: (d) =>
      d.pattern === undefined
        ? 'domains must be a list of non-empty strings'
        : `invalid domain ${q(d.pattern)}: ${domainReason({ why: 'empty' })}`,
  }),
  'domains-empty': entry({
    severity: 'error',
    title: 'No domains',
    hint: 'List at least one host the skill applies to.',
    message: () => 'domains must not be empty',
  }),
  'domain-invalid': entry<{ pattern: string; reason: DomainReason }>({
    severity: 'error',
    title: 'Invalid domain pattern',
    hint:
      'Write a host ("example.com") or a wildcard subdomain pattern ("*.example.com"), without scheme, port or ' +
      'path.',
    message: (d) => `invalid domain ${q(d.pattern)}: ${domainReason(d.reason)}`,
    hintFor: (d) => domainHint(d.reason),
  }),
  'domain-public-suffix': entry<{ pattern: string; host: string; wildcard: boolean }>({
    severity: 'error',
    title: 'Domain is a public suffix',
    hint: 'A pattern must name a registrable domain or a host under one; "*.com" would claim every .com site.',
    message: (d) => {
      const what = d.wildcard ? 'a wildcard over the public suffix' : 'a public suffix'
      return `invalid domain ${q(d.pattern)}: ${what} ${q(d.host)} would match sites of many owners`
    },
  }),
  'domain-port': entry<{ pattern: string; host: string }>({
    severity: 'error',
    title: 'Domain has a port',
    hint: 'Ports are ignored when matching: write the host alone ("localhost", not "localhost:8080").',
    message: (d) => `invalid domain ${q(d.pattern)}: contains a port, but ports are ignored when matching`,
    hintFor: (d) => `Write ${q(d.host)}: it matches that host on every port.`,
  }),
  'domain-unicode': entry<{ pattern: string; normalized: string }>({
    severity: 'warning',
    title: 'Unicode domain',
    hint: 'Browsers report hosts in punycode; write the punycode form.',
    message: (d) => `domain ${q(d.pattern)} is matched as ${q(d.normalized)}`,
    hintFor: (d) => `Write ${q(d.normalized)}: browsers report hosts in punycode.`,
  }),
  'domain-shadowed': entry<{ pattern: string; owner: string }>({
    severity: 'warning',
    title: 'Domain claimed twice',
    hint: 'Another skill claims the same pattern; both will match.',
    message: (d) => `domain ${q(d.pattern)} is also claimed by skill ${q(d.owner)}`,
  }),
  'note-path': entry<{ note?: string }>({
    severity: 'error',
    title: 'Invalid note path',
    hint: 'Notes live at notes/<name>.md (or <product>/prompt.md).',
    message: (d) =>
      d.note === undefined
        ? 'notes must be a list of non-empty strings'
        : pathEscapeMessage({ via: 'note', note: d.note }),
  }),
  'note-missing': entry<{ note: string; directory?: boolean }>({
    severity: 'error',
    title: 'Note file missing',
    hint: 'Create the file or remove it from "notes".',
    message: (d) => `missing note ${q(d.note)}${d.directory ? ': it is a directory' : ''}`,
  }),
  'temp-ref': entry<{ subject: Subject }>({
    severity: 'error',
    title: 'Temporary snapshot ref',
    hint:
      'Snapshot refs (@12, ref=12) change on every page load; describe the element with a stable selector, ' +
      'role or text.',
    message: (d) => `${subjectLabel(d.subject)}: contains temporary snapshot ref; use stable locators instead`,
  }),
  'tool-map-invalid': entry<{ map: string }>({
    severity: 'error',
    title: 'Invalid tool map',
    hint: 'Use an object keyed by tool name: { "search": { ... } }.',
    message: (d) => `${d.map} must be an object keyed by tool name`,
  }),
  'tool-name': entry<ToolNameData>({
    severity: 'error',
    title: 'Invalid tool name',
    hint: 'Use snake_case names such as "search_users".',
    message: toolNameMessage,
    hintFor: (d) =>
      d.problem === 'both'
        ? 'Tool names share one namespace (sites[id][tool]); rename one of them.'
        : d.problem === 'invisible'
          ? 'Use visible characters on one line: snake_case names such as "search_users".'
          : undefined,
  }),
  'tool-schema': entry<{ tool: string; field?: string; detail?: string }>({
    severity: 'error',
    title: 'Invalid tool schema',
    hint: 'A tool is { description, path, args, returns } (Node tools add callable).',
    message: (d) =>
      d.detail !== undefined
        ? `${d.tool}: ${d.detail}`
        : d.field === undefined
          ? `${d.tool}: schema must be an object`
          : d.field === 'timeoutMs'
            ? `${d.tool}: timeoutMs must be an integer from 1 to 3600000`
            : `${d.tool}: invalid ${d.field}`,
  }),
  'tool-description': entry<{ tool: string }>({
    severity: 'error',
    title: 'Missing tool description',
    hint: 'Say what the tool does; models read it.',
    message: (d) => `${d.tool}: description must be a non-empty string`,
  }),
  'tool-path': entry<{ tool: string; problem: keyof typeof TOOL_PATH_WORDS }>({
    severity: 'error',
    title: 'Invalid tool path',
    hint: 'Node tools: tools/<name>.js|.mjs|.ts or <product>/functions.js; browser tools: browser-tools/<name>.js|.ts.',
    message: (d) => `${d.tool}: ${TOOL_PATH_WORDS[d.problem]}`,
  }),
  'tool-file-missing': entry<{ kind: 'node' | 'browser'; path: string; tool: string; directory?: boolean }>({
    severity: 'error',
    title: 'Tool file missing',
    hint: 'Create the file or fix "path".',
    message: (d) => {
      const label = d.kind === 'node' ? 'Node tool' : 'browser tool'
      const directory = d.directory ? ': it is a directory' : ''
      return `missing ${label} file ${q(d.path)} for tool ${q(d.tool)}${directory}`
    },
  }),
  'tool-callable': entry<{ tool: string }>({
    severity: 'error',
    title: 'Invalid callable',
    hint: 'Name the exported function, e.g. "callable": "searchUsers".',
    message: (d) => `${d.tool}: callable must be a non-empty string`,
  }),
  'tool-callable-missing': entry<{ callable: string; tool: string; notFunction: boolean }>({
    severity: 'error',
    title: 'Callable not exported',
    hint: 'Export the function by that name: export async function name(ctx, args) { ... }.',
    message: (d) =>
      d.notFunction
        ? `Node callable ${q(d.callable)} for tool ${q(d.tool)} is exported but is not a function`
        : `missing Node callable ${q(d.callable)} for tool ${q(d.tool)}`,
  }),
  'tool-parse': entry<ToolParseData>({
    severity: 'error',
    title: 'Tool does not parse',
    hint:
      'A browser tool is one function expression (async function (args) { ... }) or a module whose default ' +
      'export is that function.',
    message: toolParseMessage,
    hintFor: (d) =>
      d.problem === 'node-syntax'
        ? NODE_HINT
        : d.problem === 'import-meta'
          ? "Read the page's address from location.href or document.baseURI; pass anything else as an argument."
          : undefined,
  }),
  'path-escape': entry<PathEscapeData>({
    severity: 'error',
    title: 'Path leaves the skill folder',
    hint: 'Keep every file of a skill inside its folder; symlinks out of it are rejected.',
    message: pathEscapeMessage,
    hintFor: (d) =>
      d.via === 'import'
        ? "Import the skill's own files by a relative path, and packages by name (installed in the project's " +
          "node_modules or the skill's own)."
        : undefined,
  }),
  'args-invalid': entry<{ tool: string } | { tool: string; argName: unknown }>({
    severity: 'error',
    title: 'Invalid args',
    hint: 'Use "args": { "name": { "type": "string", "required": true, "description": "..." } }.',
    message: (d) =>
      'argName' in d
        ? `${d.tool}: args contains invalid argument name ${q(d.argName)}`
        : `${d.tool}: args must be an object`,
  }),
  'arg-schema': entry<{ at: string; problem: ValueProblem }>({
    severity: 'error',
    title: 'Invalid argument schema',
    hint:
      'A value schema is { type, required, description } and may add items, properties, additionalProperties, ' +
      'enum or nullable.',
    message: (d) => `${d.at}: ${valueProblem(d.problem)}`,
  }),
  'returns-invalid': entry<{ tool: string } | { at: string; problem: ValueProblem }>({
    severity: 'error',
    title: 'Invalid returns',
    hint: 'Use "returns": { "type": "object", "description": "..." }.',
    message: (d) => ('at' in d ? `${d.at}: ${valueProblem(d.problem)}` : `${d.tool}: returns must be an object`),
  }),
  'file-not-regular': fileError(
    'Not a regular file',
    'Manifests, notes, tools, the files tools import, their package.json files and fixtures must be ' +
      'regular files; a named pipe, device or socket is never read. Put a file there.',
  ),
  'file-unreadable': fileError(
    'File cannot be read',
    'Let the user who runs the build read it (chmod a+r), or remove it from the manifest.',
  ),
  'file-too-large': fileError(
    'File too large',
    'Notes and tool files are limited to 4 MiB each: split a long note into several, and import large ' +
      'code from a package.',
  ),
  'id-invalid': entry<{ id: string } & NameCharacter>({
    severity: 'error',
    title: 'Invalid skill id',
    hint:
      'The folder name is the skill id, used in file paths, module ids and model tool names: use visible ' +
      'characters, e.g. "news-site".',
    message: (d) => `skill id ${quoteName(d.id)} (its folder name) contains ${describeCharacter(d)}`,
  }),
  'id-case-collision': entry<{ id: string; first: string }>({
    severity: 'warning',
    title: 'Ids differ only in case',
    hint: 'On case-insensitive file systems (macOS, Windows) both folders are one; rename one of them.',
    message: (d) => `skill id ${q(d.id)} differs from ${q(d.first)} only in case`,
  }),
  'tool-name-collision': entry<{ tool: string; name: string; owner: string; ownerSite?: string }>({
    severity: 'error',
    title: 'Model tool names collide',
    hint:
      'A model tool name is "<siteId>__<tool>", every character other than a letter, digit, "_" or "-" ' +
      'replaced by "_", cut to 60 characters: rename the tool so that its model name is unique.',
    message: (d) => {
      const of = d.ownerSite === undefined ? '' : ` of skill ${q(d.ownerSite)}`
      return `tool ${q(d.tool)} has the model tool name ${q(d.name)}, as tool ${q(d.owner)}${of}`
    },
  }),
  'example-invalid': exampleError<ExampleInvalidData>(
    'Invalid example',
    'An example is { "name"?, "args": { ... }, "url"?, "fixture"?, "expect"? } with a unique name; ' +
      `see ${EXAMPLES_PAGE}`,
    exampleInvalidMessage,
  ),
  'example-args': exampleError<ExampleArgsData>(
    'Example args do not fit the tool',
    "An example's args must pass the tool's argument checks, as a real call's would.",
    exampleArgsMessage,
  ),
  'example-fixture': exampleError<ExampleFixtureData>(
    'Invalid example fixture',
    'A fixture is a saved page inside the skill, fixtures/<name>.html (Node tools may also use .json, ' +
      '.txt, .xml); make one with `site-skills snapshot URL --site ID`.',
    exampleFixtureMessage,
  ),
  'example-url': exampleError<ExampleUrlData>(
    'Invalid example url',
    "Give the http(s) address the fixture was saved from; its host must match one of the skill's domains.",
    exampleUrlMessage,
  ),
  'fixture-header': entry<FixtureHeaderData>({
    severity: 'warning',
    title: 'Fixture header missing or wrong',
    hint:
      'A page fixture starts with a "site-skills fixture" comment holding JSON { "url", "captured", "source"? }: ' +
      "the address it was captured at, on the domain of the example's url (`site-skills snapshot` writes it). " +
      'A recorded response (.json) is { "site-skills fixture": { ... }, "responses": [{ "url", "body" }] }, ' +
      `each url on the domain of the header url. See ${EXAMPLES_PAGE}`,
    message: fixtureHeaderMessage,
    hintFor: fixtureHeaderHint,
  }),
  'token-budget': entry<{ subject: string; tokens: number; budget: number; option: boolean }>({
    severity: 'warning',
    title: 'Over its token budget',
    hint:
      'Shorten the descriptions (of the tool, its arguments and its result) or the notes, or raise tokenBudget; ' +
      '`site-skills context URL --tokens` prints each figure.',
    message: (d) =>
      `${d.subject}: ${d.tokens.toLocaleString('en-US')} tokens (o200k_base), over the budget of ` +
      `${d.budget.toLocaleString('en-US')} (${d.option ? 'the tokenBudget option' : 'tokenBudget'})`,
  }),
  'token-budget-invalid': entry<{ at: string }>({
    severity: 'error',
    title: 'Invalid token budget',
    hint: 'tokenBudget is a positive integer, or { "max": N, "fail": true } to make exceeding it an error.',
    message: (d) => `${d.at}: tokenBudget must be a positive integer or { "max": N, "fail"?: boolean }`,
  }),
  'result-budget': entry<{ tool: string; example: string; tokens: number; budget: number; from: 'expect' | 'record' }>({
    severity: 'warning',
    title: 'Example result over its result budget',
    hint:
      'Return less per call (fewer fields, shorter text, a limit argument), or raise resultBudget; a result over it ' +
      'reaches agents a page at a time. `site-skills test` prints each example result’s tokens.',
    message: (d) =>
      `${d.tool} example ${q(d.example)}: its ${d.from === 'expect' ? 'expected' : 'recorded'} result is about ` +
      `${d.tokens.toLocaleString('en-US')} tokens, over the resultBudget of ${d.budget.toLocaleString('en-US')}`,
  }),
  'result-budget-invalid': entry<{ at: string }>({
    severity: 'error',
    title: 'Invalid result budget',
    hint: 'resultBudget is a whole number of tokens from 100 to 1,000,000 (default 4,000).',
    message: (d) => `${d.at}: resultBudget must be an integer from 100 to 1000000`,
  }),
  'cursor-arg': entry<{ tool: string }>({
    severity: 'warning',
    title: 'Tool declares its own cursor',
    hint:
      'The runtime adds a "cursor" argument to page results over their resultBudget; rename this one ' +
      '(e.g. "after" or "page") so that the tool’s results can be paged.',
    message: (d) => `${d.tool} declares an argument "cursor": its results are sent whole, never paged`,
  }),
  'url-pattern': entry<UrlPatternData>({
    severity: 'error',
    title: 'Invalid URL pattern',
    hint:
      'urls is a list of URLPattern pathname patterns starting with "/": "/:owner/:repo", ' +
      '"/:owner/:repo/issues/*".',
    message: urlPatternMessage,
    hintFor: (d) => (d.problem === 'slow' ? slowHint(d) : undefined),
  }),
  'verification-stale': entry<{ file: string; change: 'changed' | 'added' | 'removed' }>({
    severity: 'warning',
    title: 'Verification record is stale',
    hint: 'Run site-skills test --record again to verify the skill as it is now.',
    message: (d) => `${q(d.file)} was ${d.change} since verification.json was recorded`,
  }),
  'verification-invalid': entry<{ reason: string }>({
    severity: 'warning',
    title: 'Unusable verification record',
    hint: 'verification.json is written by site-skills test --record; run it again rather than editing the file.',
    message: (d) => `verification.json cannot be used: ${d.reason}`,
  }),
  'cache-ignored': entry<{ file: string; reason: string }>({
    severity: 'warning',
    title: 'Build cache ignored',
    hint:
      'The plugin writes its cache for the user who runs the build, and replaces a file there it does not ' +
      'trust; if something else writes into node_modules/.cache/site-skills, stop it, or set cache: false.',
    message: (d) => `the build cache file ${q(d.file)} ${d.reason}: it was ignored, and is written again`,
  }),
  'dts-unwritten': entry<{ file: string; reason: string }>({
    severity: 'warning',
    title: 'Declarations not written',
    hint:
      'The d.ts is replaced whole, never written through a symlink or into a named pipe or device: remove ' +
      'what is at that path, or point the dts option (site-skills types/check: --out) at a regular file.',
    message: (d) => d.reason,
  }),
  'verification-unwritten': entry<{ problem: 'changed'; files: string[] } | { problem: 'write'; reason: string }>({
    severity: 'error',
    title: 'Verification record not written',
    hint:
      "Run site-skills test --record again once nothing changes the skill's files while its examples run " +
      '(a tool that writes into its own folder does), with verification.json a regular file or absent.',
    message: (d) =>
      d.problem === 'changed'
        ? `${fileList(d.files)} changed while the examples ran: verification.json was not written`
        : `verification.json was not written: ${d.reason}`,
  }),
  'agent-skill-name': entry<{ id: string; name: string }>({
    severity: 'warning',
    title: 'Skill id is not an Agent Skills name',
    hint:
      'An Agent Skills name is 1 to 64 of a-z, 0-9 and single hyphens, and the folder name; the export ' +
      'uses the mapped name and keeps the id for the scripts. Rename the folder to make them one.',
    message: (d) => `skill id ${quoteName(d.id)} is exported as the Agent Skills folder ${q(d.name)}`,
  }),
  'agent-skill-name-invalid': entry<{ id: string; name: string; owner?: string }>({
    severity: 'error',
    title: 'Skill id has no Agent Skills name of its own',
    hint:
      'Agent Skills names are lowercase a-z, 0-9 and single hyphens: rename the skill folder (and its id) so ' +
      'that its name is one of its own, e.g. "news-site".',
    message: (d) =>
      d.owner === undefined
        ? `skill id ${quoteName(d.id)} has no letter or digit a-z, 0-9 to make an Agent Skills name of`
        : `skill id ${quoteName(d.id)} would be exported as ${q(d.name)}, the name of skill ${quoteName(d.owner)}`,
  }),
  'compat-ego-lite': entry<CompatData>({
    severity: 'error',
    title: 'Not loadable by ego-lite',
    hint: 'The original runtime only loads .js tools, bare-function browser tools and manifests without a BOM.',
    message: compatMessage,
  }),
}

type Catalog = typeof DIAGNOSTIC_CATALOG
export type DiagnosticCode = keyof Catalog
/** What a finding of `C` says, as its catalog entry's `message` takes it. */
export type DiagnosticData<C extends DiagnosticCode> = Parameters<Catalog[C]['message']>[0]

/** A finding before it has a place: its code and that code's data. */
export type Finding = { [C in DiagnosticCode]: { code: C; data: DiagnosticData<C> } }[DiagnosticCode]

/** A finding's message and hint, in its catalog entry's words. */
export function describeFinding(f: Finding): { code: DiagnosticCode; message: string; hint: string } {
  const entry = DIAGNOSTIC_CATALOG[f.code] as CatalogEntry<Finding['data']>
  return { code: f.code, message: entry.message(f.data), hint: entry.hintFor?.(f.data) ?? entry.hint }
}

/** The skill a finding belongs to: its id, and the root it was found in (absolute, as given). */
export interface DiagnosticSkill {
  id: string
  root: string
}

/**
 * Where a finding is and what it says. `file` is relative to `root` with forward slashes; line and column are 1-based.
 */
interface DiagnosticPlace {
  severity: Severity
  /** The root of the skill (absolute, as given): two roots may hold skills of the same id. */
  root: string
  siteId: string
  file: string
  line: number
  column: number
  /** Rendered by the catalog from `(code, data)`: for people. Programs read `code` and `data`. */
  message: string
  hint?: string
}

/** One finding: its code and that code's data (as the catalog types it), its skill, root and place, and its text. */
export type Diagnostic = {
  [C in DiagnosticCode]: { code: C; data: DiagnosticData<C> } & DiagnosticPlace
}[DiagnosticCode]

/** A finding with its place in the file (1-based; the start by default) and, rarely, another severity. */
export type DiagnosticInit = Finding & { line?: number; column?: number; severity?: Severity }

/**
 * Builds a diagnostic of a skill (a `SkillFolder` or `SkillModel` will do): message and hint from
 * the code's catalog entry, severity too unless given.
 */
export function createDiagnostic(skill: DiagnosticSkill, file: string, init: DiagnosticInit): Diagnostic {
  const { code, message, hint } = describeFinding(init)
  const severity = init.severity ?? DIAGNOSTIC_CATALOG[code].severity
  const place = { severity, root: skill.root, siteId: skill.id, file, line: init.line ?? 1, column: init.column ?? 1 }
  return { code, data: init.data, ...place, message, hint } as Diagnostic
}

export function countBySeverity(diagnostics: readonly Diagnostic[]): { errors: number; warnings: number } {
  let errors = 0
  for (const d of diagnostics) if (d.severity === 'error') errors++
  return { errors, warnings: diagnostics.length - errors }
}

/** Stable order: by file, position, then code. */
export function compareDiagnostics(a: Diagnostic, b: Diagnostic): number {
  return a.file < b.file
    ? -1
    : a.file > b.file
      ? 1
      : a.line - b.line || a.column - b.column || (a.code < b.code ? -1 : a.code > b.code ? 1 : 0)
}
