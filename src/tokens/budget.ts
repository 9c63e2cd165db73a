import { assignToolNames } from '../../runtime/internal'
import { createRegistryData } from '../codegen/meta'
import {
  type CompileResult,
  type CompiledSkill,
  type Compiler,
  type CompilerOptions,
  createCompiler,
} from '../compiler/compile'
import { compareDiagnostics, countBySeverity, createDiagnostic, type Diagnostic } from '../compiler/diagnostics/catalog'
import type { SkillModel, SkillRecord, TokenBudget } from '../compiler/model'
import { MANIFEST } from '../compiler/discover/skills'
import { skillTokens } from './count'
import { loadTokenizer, type Tokenizer } from './tokenizer'

/**
 * The `tokenBudget` plugin option: the most tokens of each tool's definition (`tool`) and of each
 * skill's definitions and notes together (`skill`), where a manifest sets none; `fail` makes
 * exceeding one an error.
 */
export interface TokenBudgetOption {
  tool?: number
  skill?: number
  fail?: boolean
}

/** The budget that applies: the manifest's, else the option's (which then says whether it fails). */
function budgetOf(own: TokenBudget | undefined, max: number | undefined, fail: boolean | undefined) {
  if (own) return { ...own, option: false }
  return max === undefined ? undefined : { max, fail, option: true }
}

function hasBudgets(result: CompileResult, option: TokenBudgetOption | undefined): boolean {
  if (option?.tool !== undefined || option?.skill !== undefined) return true
  return result.skills.some(({ model }) => model.tokenBudget || model.tools.some((t) => t.tokenBudget))
}

/** The token-budget findings of one skill, at its tool entries (or its own `tokenBudget` key). */
function skillFindings(
  skill: CompiledSkill,
  record: SkillRecord | undefined,
  counted: ReturnType<typeof skillTokens>,
  option: TokenBudgetOption | undefined,
): Diagnostic[] {
  const { model } = skill
  const found: Diagnostic[] = []
  const locate = (path: (string | number)[]) => record?.locate?.(path) ?? { line: 1, column: 1 }
  const add = (subject: string, tokens: number, budget: ReturnType<typeof budgetOf>, at: (string | number)[]) => {
    if (!budget || tokens <= budget.max) return
    const data = { subject, tokens, budget: budget.max, option: budget.option }
    const severity = budget.fail ? ('error' as const) : ('warning' as const)
    found.push(
      createDiagnostic(model, `${model.id}/${MANIFEST}`, { code: 'token-budget', data, severity, ...locate(at) }),
    )
  }
  for (const tool of model.tools) {
    const map = tool.kind === 'node' ? 'nodeTools' : 'browserTools'
    const budget = budgetOf(tool.tokenBudget, option?.tool, option?.fail)
    const tokens = counted.tools.find((t) => t.tool === tool.name)?.tokens ?? 0
    add(`${map}.${tool.name}`, tokens, budget, [map, tool.name])
  }
  const budget = budgetOf(model.tokenBudget, option?.skill, option?.fail)
  add('the skill (tool definitions and notes)', counted.total, budget, model.tokenBudget ? ['tokenBudget'] : [])
  return found
}

/** What a compile takes: the compiler's options, and the `tokenBudget` plugin option where a manifest sets none. */
export type BudgetedCompilerOptions = Omit<CompilerOptions, 'finish'> & { tokenBudget?: TokenBudgetOption | undefined }

/**
 * The compiler of every build, command, session and server (the no-build API's included): the
 * token budgets are its last stage, decided here once. Nothing else in src/ calls createCompiler
 * (test/package/layers.test.ts holds it).
 */
export function createBudgetedCompiler(options: BudgetedCompilerOptions): Compiler {
  const { tokenBudget, ...rest } = options
  return createCompiler({ ...rest, finish: (result) => checkTokenBudgets(result, tokenBudget) })
}

/**
 * The compile with its `token-budget` findings: a warning for each tool (at its manifest entry) and
 * skill over its budget, an error with `fail` (the skill is then not served). Loads the tokenizer
 * only when some budget applies.
 */
async function checkTokenBudgets(
  result: CompileResult,
  option?: TokenBudgetOption,
  load: () => Promise<Tokenizer> = loadTokenizer,
): Promise<CompileResult> {
  if (!hasBudgets(result, option)) return result
  const tokenizer = await load()
  const metas = createRegistryData(result.skills).skills
  const refs = metas.flatMap((s) => Object.keys(s.tools).map((tool) => ({ siteId: s.id, tool })))
  const names = assignToolNames(refs)
  const records = new Map(result.records.map((r) => [r.model, r]))
  // By root and id: a second root may hold a skill of the same id (not served, `duplicate-id`).
  const keyOf = (skill: { root: string; id: string }) => `${skill.root}\0${skill.id}`
  const added = new Map<string, Diagnostic[]>()
  result.skills.forEach((skill, i) => {
    const notes = skill.model.notes.map((n) => n.content)
    const counted = skillTokens(tokenizer, metas[i]!, names, notes)
    const found = skillFindings(skill, records.get(skill.model), counted, option)
    if (found.length) added.set(keyOf(skill.model), found)
  })
  if (added.size === 0) return result
  const extra = [...added.values()].flat()
  const diagnostics = [...result.diagnostics, ...extra].sort(compareDiagnostics)
  const failed = (model: SkillModel) => added.get(keyOf(model))?.some((d) => d.severity === 'error') ?? false
  return {
    ...result,
    skills: result.skills.filter((s) => !failed(s.model)),
    reports: result.reports.map((r) => {
      const own = added.get(keyOf(r))
      return own ? { ...r, diagnostics: [...r.diagnostics, ...own].sort(compareDiagnostics) } : r
    }),
    diagnostics,
    ...countBySeverity(diagnostics),
  }
}
