/** The value types a manifest may declare (the original's TOOL_VALUE_TYPES). */
export type ValueType = 'string' | 'number' | 'integer' | 'boolean' | 'array' | 'object'
export type ToolKind = 'node' | 'browser'
export type Literal = string | number | boolean | null

/**
 * A value schema as declared in a manifest, extended with items, properties, enum, nullable and
 * additionalProperties.
 */
export interface ValueSchema {
  type: ValueType
  description?: string
  /**
   * For an argument or a property: it must have a value (be present and not null, unless
   * `nullable`). Without it, absent, undefined and null all mean "no value", which is allowed.
   * On `returns`: `false` allows a result of no value.
   */
  required?: boolean
  /** Null is a value: allowed wherever this schema applies (an array item, a map value, a required property). */
  nullable?: boolean
  items?: ValueSchema
  properties?: Record<string, ValueSchema>
  /**
   * Object keys other than `properties`: allowed (`true`, the default), refused (`false`), or each a
   * value of this schema (a map).
   */
  additionalProperties?: boolean | ValueSchema
  enum?: Literal[]
}

/**
 * Hints for MCP clients about how a tool behaves (the manifest's optional `annotations`), as the
 * Model Context Protocol names them. Absent hints are left to the client's defaults.
 */
export interface ToolAnnotations {
  /** A human-readable name. */
  title?: string
  /** The tool changes nothing. */
  readOnlyHint?: boolean
  /** The tool may delete or overwrite data. */
  destructiveHint?: boolean
  /** Calling it again with the same args has no further effect. */
  idempotentHint?: boolean
  /** The tool reaches beyond the page. */
  openWorldHint?: boolean
}

/** What every consumer may know about a tool: no code, no file system paths. */
export interface ToolMeta {
  kind: ToolKind
  description: string
  args: Record<string, ValueSchema>
  returns: ValueSchema
  timeoutMs?: number
  /**
   * The most tokens (estimated) of one result as compact text before it is paged: the manifest's
   * `resultBudget` of the tool, else of its skill; absent: the default, 4,000.
   */
  resultBudget?: number
  /** MCP hints from the manifest, when it states any. */
  annotations?: ToolAnnotations
  /** File of the tool relative to its root (`google/tools/search.js`), for error messages. */
  file: string
  /** Pathname patterns (URLPattern syntax) of the pages the tool is for, when the manifest scopes it. */
  urls?: string[]
  /** `site-skills mcp` calls the page's own WebMCP tool of this tool's name instead, when the page has one. */
  webmcp?: 'prefer'
}

/** Metadata of one skill, as exported by `virtual:site-skills` (`skills`). */
export interface SkillMeta {
  id: string
  name: string
  domains: string[]
  /**
   * Pathname patterns (URLPattern syntax, `/:owner/:repo`) of the pages the skill applies to on its
   * domains, when the manifest scopes it; absent: every page of its domains.
   */
  urls?: string[]
  /** Note file names relative to the skill folder, in manifest order. */
  notes: string[]
  tools: Record<string, ToolMeta>
  /** The skill's verification record (`site-skills test --record`), when it has one. */
  verified?: VerificationSummary
}

/** What a skill's `verification.json` says, in short. */
export interface VerificationSummary {
  /** When the examples ran (ISO 8601, UTC). */
  date: string
  /** The version of unplugin-site-skills that ran them. */
  version: string
  /** They also ran on their live pages (`--live`). */
  live: boolean
  passed: number
  failed: number
}

/**
 * A note as an agent puts it in its prompt, in the original's shape (`LearnedKnowledgeNote`). The
 * note's path inside the skill folder is in the skill's metadata (`notes`, same order).
 */
export interface KnowledgeNote {
  siteId: string
  /** The note's file name without its folder (`prompt.md` for `docs/prompt.md`). */
  fileName: string
  content: string
}

/** A browser tool compiled to one self-contained function expression. */
export interface BrowserToolCode {
  source: string
  /** Version-3 source map of `source` (mappings and sources only), for mapping errors back. */
  map?: { sources: string[]; mappings: string }
}

/** A Node tool: `fn(ctx, args)`. */
// A user's function declares its own parameter types, which `unknown` parameters would refuse.
// biome-ignore lint/suspicious/noExplicitAny: the one place a user function must be accepted
export type NodeToolFunction = (ctx: any, args: any) => unknown

/**
 * Argument check of a tool, interpreted from its declared `args` (runtime/value-problems.ts). Returns undefined when
 * the args are valid, else
 * `[path, expected, actual]`: `expected` is `'present'` (a required argument is missing),
 * `'absent'` (an undeclared argument) or a phrase such as `'a string'` or `'one of "a", "b"'`.
 */
export type ArgsValidator = (
  args: Record<string, unknown>,
) => [path: string, expected: string, actual?: unknown] | undefined

/**
 * Result check of a tool, interpreted from its `returns` (runtime/value-problems.ts). Returns undefined when the result
 * fits, else `[path, expected, actual]` with paths such as `result.products[0].price`.
 */
export type ReturnsValidator = (result: unknown) => [path: string, expected: string, actual?: unknown] | undefined

/** What a skill's lazy chunk provides. */
export interface SkillChunk {
  notes: KnowledgeNote[]
  nodeTools: Record<string, () => Promise<NodeToolFunction>>
  browserTools: Record<string, BrowserToolCode>
  /** Compiles a browser tool that `browserTools` leaves out, when it is called (the no-build API). */
  loadBrowserTool?: (tool: string) => Promise<BrowserToolCode>
}
