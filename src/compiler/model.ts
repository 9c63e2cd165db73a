import type { ToolAnnotations, ToolKind, ValueSchema, VerificationSummary } from '../../runtime/index'
import type { Diagnostic } from './diagnostics/catalog'
import type { JsonPath, Position } from './parse'

/** One skill folder found in a root. */
export interface SkillFolder {
  /** The folder name, which is the skill id. */
  id: string
  /** The root it was found in (absolute, as given). */
  root: string
  /** `root/id`, as found (not resolved). */
  dir: string
  /** The real path of the folder (symlinks resolved). */
  realDir: string
  /** The folder is a symlink (invisible to the original). */
  symlinked: boolean
}

/** A manifest's `tokenBudget` (a number `n` is `{ max: n }`). */
export interface TokenBudget {
  max: number
  /** Exceeding it is an error, not a warning. */
  fail?: boolean
}

/** A tool as its manifest declares it. */
export interface ManifestTool {
  description: string
  /** Path relative to the skill folder, as written in the manifest. */
  path: string
  callable?: string
  args: Record<string, ValueSchema>
  returns: ValueSchema
  timeoutMs?: number
  /** MCP hints (`annotations` in the manifest). */
  annotations?: ToolAnnotations
  /** The most tokens its MCP definition may take. */
  tokenBudget?: TokenBudget
  /** The most tokens (estimated) of one result before the runtime pages it. */
  resultBudget?: number
  /** URLPattern pathname patterns of the pages it is for (every one compiled). */
  urls?: string[]
  /** Browser tools: call the page's own WebMCP tool of this name when the page has one. */
  webmcp?: 'prefer'
}

/** A checked tool: its declaration, name, kind and real file. */
export interface ToolModel extends ManifestTool {
  name: string
  kind: ToolKind
  /** Real absolute path of the file. */
  absPath: string
  /** Browser tools only: the file is an ES module with a default export (not a bare function). */
  module?: boolean
  /** The manifest's examples that passed their checks, for `site-skills test`. */
  examples?: ExampleModel[]
}

/** One example call of a tool (the manifest's `examples` entry, checked). */
export interface ExampleModel {
  /** The given name, else its position ("#1"). */
  name: string
  args: Record<string, unknown>
  /** The address the fixture is served under (and the live page of `--live`). */
  url?: string
  /** The fixture's path relative to the skill folder, and its real path. */
  fixture?: string
  fixturePath?: string
  /** Present when the manifest gives `expect` (which may itself be null). */
  expect?: { value: unknown }
}

export interface NoteModel {
  path: string
  absPath: string
  /** The text, as read when it was checked. */
  content: string
}

/** A valid skill, ready for code generation. */
export interface SkillModel {
  id: string
  name: string
  /** Normalized patterns, in manifest order. */
  domains: string[]
  /** URLPattern pathname patterns of the pages it applies to (every one compiled); absent: all. */
  urls?: string[]
  root: string
  dir: string
  realDir: string
  notes: NoteModel[]
  /** Node tools first, then browser tools, each in manifest order (as the original lists them). */
  tools: ToolModel[]
  /** The most tokens its tool definitions and notes may take together. */
  tokenBudget?: TokenBudget
  /** The result budget of its tools that set none. */
  resultBudget?: number
  /** What its `verification.json` says, when it has a readable one. */
  verified?: VerificationSummary
  /** The result tokens its `verification.json` recorded for its examples (by tool and example). */
  recordedTokens?: Readonly<Record<string, number>>
}

/** The outcome of validating one folder. `model` is present when it has no errors. */
export interface SkillRecord {
  folder: SkillFolder
  diagnostics: Diagnostic[]
  model?: SkillModel
  /** Tools whose own checks passed, even when the skill has other errors (so all get bundled). */
  tools: ToolModel[]
  /** Position of a member of the manifest (its key), for cross-skill checks; absent when it did not parse. */
  locate?: (path: JsonPath) => Position
  /** Where each normalized pattern is declared (its member of the manifest, for `locate`), for cross-skill checks. */
  domainSites: { pattern: string; path: JsonPath }[]
  /** Real path of the manifest, when it was read. */
  manifest?: string
  /** Every file the skill reads (real paths), for watchers and digests. */
  files: string[]
}
