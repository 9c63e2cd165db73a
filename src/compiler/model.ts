import type { ToolAnnotations, ToolKind, ValueSchema } from '../../runtime/types'
import type { Diagnostic } from './diagnostics/catalog'
import type { SkillFolder } from './discover'
import type { JsonPath, Position } from './parse'

export interface ToolModel {
  name: string
  kind: ToolKind
  description: string
  /** Path relative to the skill folder, as written in the manifest. */
  path: string
  /** Real absolute path of the file. */
  absPath: string
  callable?: string
  args: Record<string, ValueSchema>
  returns: ValueSchema
  timeoutMs?: number
  /** MCP hints (`annotations` in the manifest). */
  annotations?: ToolAnnotations
  /** Browser tools only: the file is an ES module with a default export (not a bare function). */
  module?: boolean
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
  root: string
  dir: string
  realDir: string
  notes: NoteModel[]
  /** Node tools first, then browser tools, each in manifest order (as the original lists them). */
  tools: ToolModel[]
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
  /** Where each normalized pattern is declared, for cross-skill checks. */
  domainSites: { pattern: string; locate: () => Position }[]
  /** Every file the skill reads (real paths), for watchers and digests. */
  files: string[]
}
