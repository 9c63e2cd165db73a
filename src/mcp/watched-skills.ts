import type { SiteSkills } from '../../runtime/index'
import type { CompileResult, CompiledSkill } from '../compiler/compile'
import type { Diagnostic } from '../compiler/diagnostics/catalog'
import type { SkillRecord } from '../compiler/model'
import type { RootInput } from '../compiler/discover/roots'
import { invalidSkill } from '../nobuild/invalid'
import { createSession, createSkillsApi, type NodeToolLoader } from '../session/session'

/** Which skills the server may offer: `allow` (when not empty) and never `deny`. */
export interface SkillFilter {
  allow: string[]
  deny: string[]
}

/** The skills the server offers now. */
export interface WatchedState {
  api: SiteSkills
  skills: CompiledSkill[]
  /** Skills whose folder is invalid now and which are served as they last compiled. */
  kept: string[]
  /** Errors of the last compile. */
  errors: Diagnostic[]
  /** Every skill folder of every root as the last compile found it (allowed or not, valid or not). */
  records: readonly SkillRecord[]
}

export interface WatchedSkills {
  current: () => Promise<WatchedState>
  /** Called after a file under the roots changed and the skills were compiled again. */
  onChange: (listener: () => void) => void
  /** An API over some of the served skills whose Node tools are had from `loadNodeTool` (a sandbox). */
  apiOf: (skills: readonly CompiledSkill[], loadNodeTool: NodeToolLoader) => SiteSkills
  /** How many skills are kept as they last compiled (at most the skills of the roots). */
  kept: () => number
  close: () => void
}

export interface WatchOptions {
  roots: readonly RootInput[]
  compat?: 'ego-lite'
  filter: SkillFilter
  /** Where problems are reported (the server's stderr). */
  log: (line: string) => void
}

const SETTLE_MS = 60

function allowed(filter: SkillFilter, id: string): boolean {
  return (filter.allow.length === 0 || filter.allow.includes(id)) && !filter.deny.includes(id)
}

/** The valid skills of a compile, plus the last good version of each skill that is invalid now. */
function merge(result: CompileResult, good: Map<string, CompiledSkill>, filter: SkillFilter) {
  const valid = new Map(result.skills.map((s) => [s.model.id, s]))
  const skills: CompiledSkill[] = []
  const kept: string[] = []
  for (const report of result.reports) {
    if (!allowed(filter, report.id) || skills.some((s) => s.model.id === report.id)) continue
    const now = valid.get(report.id)
    const before = good.get(report.id)
    if (now) skills.push(now)
    else if (before) {
      skills.push(before)
      kept.push(report.id)
    }
  }
  return { skills, kept }
}

function describe(d: Diagnostic): string {
  return `${d.file}:${d.line}:${d.column} ${d.code}: ${d.message}`
}

/**
 * The skills of the roots, compiled again whenever a file changes (the no-build session with its
 * watchers). A skill that becomes invalid is reported and served as it last compiled.
 */
export function createWatchedSkills(options: WatchOptions): WatchedSkills {
  const listeners: (() => void)[] = []
  const good = new Map<string, CompiledSkill>()
  let timer: ReturnType<typeof setTimeout> | undefined
  let last: { compiled: CompileResult; state: WatchedState } | undefined
  let reported = new Set<string>()

  const session = createSession(options.roots, {
    invalidSkill,
    compat: options.compat,
    watch: true,
    onChange() {
      clearTimeout(timer)
      timer = setTimeout(settle, SETTLE_MS)
    },
  })

  function report(state: WatchedState): void {
    const now = new Set(state.errors.map(describe))
    for (const line of now) if (!reported.has(line)) options.log(`invalid skill: ${line}`)
    for (const id of state.kept) if (!reported.has(`kept\0${id}`)) options.log(`kept the last good version of ${id}`)
    reported = new Set([...now, ...state.kept.map((id) => `kept\0${id}`)])
  }

  async function current(): Promise<WatchedState> {
    // The session's compile counts the token budgets: as in a build, a skill over a `fail: true`
    // budget is not served.
    const { result } = await session.current()
    if (last?.compiled === result) return last.state
    const { skills, kept } = merge(result, good, options.filter)
    for (const skill of result.skills) good.set(skill.model.id, skill)
    // A skill whose folder is gone is no longer kept: the table holds the skills of the roots, not every one seen.
    const present = new Set(result.reports.map((r) => r.id))
    for (const id of good.keys()) if (!present.has(id)) good.delete(id)
    const errors = result.diagnostics.filter((d) => d.severity === 'error')
    const api = createSkillsApi(session.compiler, skills, { invalidSkill })
    const state: WatchedState = { api, skills, kept, errors, records: result.records }
    last = { compiled: result, state }
    report(state)
    return state
  }

  async function settle(): Promise<void> {
    const before = last?.state
    const after = await current().catch((error: Error) => {
      options.log(`compile failed: ${error.message}`)
      return before
    })
    if (after !== before) for (const listener of listeners) listener()
  }

  return {
    current,
    onChange: (listener) => void listeners.push(listener),
    apiOf: (skills, loadNodeTool) => createSkillsApi(session.compiler, skills, { invalidSkill, loadNodeTool }),
    kept: () => good.size,
    close() {
      clearTimeout(timer)
      session.close()
    },
  }
}
