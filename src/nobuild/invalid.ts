import type { Diagnostic } from '../compiler/diagnostics/catalog'
import type { SiteToolError } from '../../runtime/index'
import { siteToolError } from '../../runtime/internal'
import { originalView } from './original-wording'

/** A tool as a caller asked for it, to single out that tool's own problem in an invalid skill. */
export interface ToolRef {
  name: string
  kind: 'node' | 'browser'
}

/**
 * A tool path that leaves the folder by its words alone (`..`, a backslash): the original's relativeSitePath refuses
 * it.
 */
function lexicalEscape(d: Diagnostic): boolean {
  return (
    (d.code === 'path-escape' && d.data.via === 'tool-path') ||
    (d.code === 'tool-path' && d.data.problem === 'backslash')
  )
}

/** The first error of an invalid skill, the asked-for tool's own (its path first) when it has one. */
export function invalidSkill(diagnostics: readonly Diagnostic[], siteId: string, tool?: ToolRef): SiteToolError {
  const errors = diagnostics.filter((d) => d.severity === 'error')
  const entry = tool && `${tool.kind === 'node' ? 'nodeTools' : 'browserTools'}.${tool.name}`
  const own = entry ? errors.filter((d) => originalView(d).entry === entry) : []
  const d = own.find((e) => e.code === 'path-escape' || e.code === 'tool-path') ?? own[0] ?? errors[0]!
  // The original runtime's wording for a tool path that leaves the folder (its relativeSitePath).
  const label = tool?.kind === 'node' ? 'Node tool' : 'browser tool'
  const message =
    own.includes(d) && lexicalEscape(d) ? `${label} path must be relative to the site skill directory` : d.message
  return siteToolError('skill-invalid', { where: `${d.file}:${d.line}:${d.column}`, problem: message }, { siteId })
}
