/**
 * The catalog of every diagnostic code. Codes are permanent: add new ones, never rename.
 * Each entry has a short title and the hint shown when a finding does not bring its own.
 */
export const DIAGNOSTIC_CATALOG = {
  'root-missing': { severity: 'error', title: 'Root not found', hint: 'Create the folder or pass another --root.' },
  'manifest-missing': {
    severity: 'error',
    title: 'No manifest.json',
    hint: 'Every skill folder needs a manifest.json. Prefix a folder with "_" to keep it out of the skills.',
  },
  'manifest-parse': {
    severity: 'error',
    title: 'Manifest is not valid JSON',
    hint: 'manifest.json is strict JSON: no comments, no trailing commas, double-quoted keys.',
  },
  'manifest-too-large': {
    severity: 'error',
    title: 'Manifest too large',
    hint: 'A manifest describes tools; keep data in notes or tool files.',
  },
  'skill-unreadable': {
    severity: 'error',
    title: 'Skill cannot be read',
    hint: 'A file of this skill could not be read (too large, or an I/O error); the other skills are not affected.',
  },
  'manifest-not-object': {
    severity: 'error',
    title: 'Manifest is not an object',
    hint: 'The top level of manifest.json must be { ... }.',
  },
  'manifest-duplicate-key': {
    severity: 'warning',
    title: 'Duplicate key',
    hint: 'JSON keeps only the last of duplicate keys; remove the others.',
  },
  'id-mismatch': { severity: 'error', title: 'Id does not match the folder', hint: 'Set "id" to the folder name.' },
  'duplicate-id': {
    severity: 'error',
    title: 'Duplicate skill id',
    hint: 'Two roots hold a skill with this id; rename or remove one.',
  },
  'name-invalid': { severity: 'error', title: 'Invalid name', hint: 'Give the site a human-readable "name".' },
  'domains-invalid': {
    severity: 'error',
    title: 'Invalid domains list',
    hint: 'Use "domains": ["example.com", "*.example.com"].',
  },
  'domains-empty': { severity: 'error', title: 'No domains', hint: 'List at least one host the skill applies to.' },
  'domain-invalid': {
    severity: 'error',
    title: 'Invalid domain pattern',
    hint: 'Write a host ("example.com") or a wildcard subdomain pattern ("*.example.com"), without scheme, port or path.',
  },
  'domain-public-suffix': {
    severity: 'error',
    title: 'Domain is a public suffix',
    hint: 'A pattern must name a registrable domain or a host under one; "*.com" would claim every .com site.',
  },
  'domain-port': {
    severity: 'error',
    title: 'Domain has a port',
    hint: 'Ports are ignored when matching: write the host alone ("localhost", not "localhost:8080").',
  },
  'domain-unicode': {
    severity: 'warning',
    title: 'Unicode domain',
    hint: 'Browsers report hosts in punycode; write the punycode form.',
  },
  'domain-shadowed': {
    severity: 'warning',
    title: 'Domain claimed twice',
    hint: 'Another skill claims the same pattern; both will match.',
  },
  'note-path': {
    severity: 'error',
    title: 'Invalid note path',
    hint: 'Notes live at notes/<name>.md (or <product>/prompt.md).',
  },
  'note-missing': { severity: 'error', title: 'Note file missing', hint: 'Create the file or remove it from "notes".' },
  'temp-ref': {
    severity: 'error',
    title: 'Temporary snapshot ref',
    hint: 'Snapshot refs (@12, ref=12) change on every page load; describe the element with a stable selector, role or text.',
  },
  'tool-map-invalid': {
    severity: 'error',
    title: 'Invalid tool map',
    hint: 'Use an object keyed by tool name: { "search": { ... } }.',
  },
  'tool-name': { severity: 'error', title: 'Invalid tool name', hint: 'Use snake_case names such as "search_users".' },
  'tool-schema': {
    severity: 'error',
    title: 'Invalid tool schema',
    hint: 'A tool is { description, path, args, returns } (Node tools add callable).',
  },
  'tool-description': {
    severity: 'error',
    title: 'Missing tool description',
    hint: 'Say what the tool does; models read it.',
  },
  'tool-path': {
    severity: 'error',
    title: 'Invalid tool path',
    hint: 'Node tools: tools/<name>.js|.mjs|.ts or <product>/functions.js; browser tools: browser-tools/<name>.js|.ts.',
  },
  'tool-file-missing': { severity: 'error', title: 'Tool file missing', hint: 'Create the file or fix "path".' },
  'tool-callable': {
    severity: 'error',
    title: 'Invalid callable',
    hint: 'Name the exported function, e.g. "callable": "searchUsers".',
  },
  'tool-callable-missing': {
    severity: 'error',
    title: 'Callable not exported',
    hint: 'Export the function by that name: export async function name(ctx, args) { ... }.',
  },
  'tool-parse': {
    severity: 'error',
    title: 'Tool does not parse',
    hint: 'A browser tool is one function expression (async function (args) { ... }) or a module whose default export is that function.',
  },
  'path-escape': {
    severity: 'error',
    title: 'Path leaves the skill folder',
    hint: 'Keep every file of a skill inside its folder; symlinks out of it are rejected.',
  },
  'args-invalid': {
    severity: 'error',
    title: 'Invalid args',
    hint: 'Use "args": { "name": { "type": "string", "required": true, "description": "..." } }.',
  },
  'arg-schema': {
    severity: 'error',
    title: 'Invalid argument schema',
    hint: 'A value schema is { type, required, description } and may add items, properties or enum.',
  },
  'returns-invalid': {
    severity: 'error',
    title: 'Invalid returns',
    hint: 'Use "returns": { "type": "object", "description": "..." }.',
  },
  'file-not-regular': {
    severity: 'error',
    title: 'Not a regular file',
    hint:
      'Manifests, notes and tools must be regular files; a named pipe, device or socket is never read. Put ' +
      'a file there.',
  },
  'file-unreadable': {
    severity: 'error',
    title: 'File cannot be read',
    hint: 'Let the user who runs the build read it (chmod a+r), or remove it from the manifest.',
  },
  'file-too-large': {
    severity: 'error',
    title: 'File too large',
    hint:
      'Notes and tool files are limited to 4 MiB each: split a long note into several, and import large ' +
      'code from a package.',
  },
  'id-invalid': {
    severity: 'error',
    title: 'Invalid skill id',
    hint:
      'The folder name is the skill id, used in file paths, module ids and model tool names: use visible ' +
      'characters, e.g. "news-site".',
  },
  'id-case-collision': {
    severity: 'warning',
    title: 'Ids differ only in case',
    hint: 'On case-insensitive file systems (macOS, Windows) both folders are one; rename one of them.',
  },
  'tool-name-collision': {
    severity: 'error',
    title: 'Model tool names collide',
    hint:
      'A model tool name is "<siteId>__<tool>", every character other than a letter, digit, "_" or "-" ' +
      'replaced by "_", cut to 60 characters: rename the tool so that its model name is unique.',
  },
  'example-invalid': {
    severity: 'error',
    title: 'Invalid example',
    hint:
      'An example is { "name"?, "args": { ... }, "url"?, "fixture"?, "expect"? } with a unique name; ' +
      'see the README section on examples.',
  },
  'example-args': {
    severity: 'error',
    title: 'Example args do not fit the tool',
    hint: "An example's args must pass the tool's argument checks, as a real call's would.",
  },
  'example-fixture': {
    severity: 'error',
    title: 'Invalid example fixture',
    hint:
      'A fixture is a saved page inside the skill, fixtures/<name>.html (Node tools may also use .json, ' +
      '.txt, .xml); make one with `site-skills snapshot URL --site ID`.',
  },
  'example-url': {
    severity: 'error',
    title: 'Invalid example url',
    hint: "Give the http(s) address the fixture was saved from; its host must match one of the skill's domains.",
  },
  'compat-ego-lite': {
    severity: 'error',
    title: 'Not loadable by ego-lite',
    hint: 'The original runtime only loads .js tools, bare-function browser tools and manifests without a BOM.',
  },
} as const satisfies Record<string, { severity: 'error' | 'warning'; title: string; hint: string }>

export type DiagnosticCode = keyof typeof DIAGNOSTIC_CATALOG
export type Severity = 'error' | 'warning'

/** One finding. `file` is relative to its root with forward slashes; line and column are 1-based. */
export interface Diagnostic {
  code: DiagnosticCode
  severity: Severity
  siteId: string
  file: string
  line: number
  column: number
  message: string
  hint?: string
}

export interface DiagnosticInit {
  code: DiagnosticCode
  message: string
  line?: number
  column?: number
  hint?: string
  severity?: Severity
}

/** Builds a diagnostic with the catalog's severity and hint unless the finding brings its own. */
export function createDiagnostic(siteId: string, file: string, init: DiagnosticInit): Diagnostic {
  const entry = DIAGNOSTIC_CATALOG[init.code]
  return {
    code: init.code,
    severity: init.severity ?? entry.severity,
    siteId,
    file,
    line: init.line ?? 1,
    column: init.column ?? 1,
    message: init.message,
    hint: init.hint ?? entry.hint,
  }
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
