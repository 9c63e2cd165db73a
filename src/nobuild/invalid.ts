import type { Diagnostic } from '../compiler/diagnostics/catalog'
import { SiteToolError } from '../../runtime/index'

/** A tool as a caller asked for it, to single out that tool's own problem in an invalid skill. */
export interface ToolRef {
  name: string
  kind: 'node' | 'browser'
}

const LEXICAL_ESCAPE_RE = /: path must (?:stay inside the skill folder|use forward slashes)$/

/** The first error of an invalid skill, the asked-for tool's own (its path first) when it has one. */
export function invalidSkill(diagnostics: readonly Diagnostic[], siteId: string, tool?: ToolRef): SiteToolError {
  const errors = diagnostics.filter((d) => d.severity === 'error')
  const prefix = tool && `${tool.kind === 'node' ? 'nodeTools' : 'browserTools'}.${tool.name}: `
  const own = prefix ? errors.filter((d) => d.message.startsWith(prefix)) : []
  const d = own.find((e) => e.code === 'path-escape' || e.code === 'tool-path') ?? own[0] ?? errors[0]!
  // The original runtime's wording for a tool path that leaves the folder (its relativeSitePath).
  const label = tool?.kind === 'node' ? 'Node tool' : 'browser tool'
  const message =
    own.includes(d) && LEXICAL_ESCAPE_RE.test(d.message)
      ? `${label} path must be relative to the site skill directory`
      : d.message
  return new SiteToolError('skill-not-found', `site skill is invalid: ${d.file}:${d.line}:${d.column} ${message}`, {
    siteId,
  })
}
