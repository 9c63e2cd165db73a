import { resultTokens, isRecord } from '../../../runtime/internal'
import type { JsonPath } from '../parse'
import { type RecordedTokens, recordedTokensOf } from '../verification'
import { type FolderValidation, reportAt } from './folder-validation'

/** The argument the runtime adds to every tool whose results it pages (runtime/registry.ts). */
const CURSOR_ARG = 'cursor'

/** A manifest's `resultBudget`, when it is one (anything else is reported by the schema check). */
export function resultBudgetOf(value: unknown): { resultBudget?: number } {
  return Number.isInteger(value) && (value as number) >= 100 && (value as number) <= 1_000_000
    ? { resultBudget: value as number }
    : {}
}

/** Warns `cursor-arg` when a tool declares its own `cursor`: the runtime then cannot page its results. */
export function checkCursorArg(check: FolderValidation, at: JsonPath, args: unknown): void {
  if (isRecord(args) && Object.hasOwn(args, CURSOR_ARG))
    reportAt(check, [...at, 'args', CURSOR_ARG], { code: 'cursor-arg', data: { tool: at.join('.') } })
}

/**
 * Warns `result-budget` when an example's `expect` alone, or its result as `test --record` recorded
 * it, is over the tool's budget (its own, the skill's, else the runtime's default): agents would get
 * that result a page at a time. Tokens are the runtime's estimate of the value as compact text.
 */
export function checkExampleBudget(
  check: FolderValidation,
  at: JsonPath,
  example: Record<string, unknown>,
  tool: { name: string; budget?: number; recorded?: RecordedTokens },
): void {
  const { budget } = tool
  if (budget === undefined) return
  const name = typeof example.name === 'string' ? example.name : `#${Number(at.at(-1)) + 1}`
  const expected = Object.hasOwn(example, 'expect') ? resultTokens(example.expect) : 0
  const recorded = recordedTokensOf(tool.recorded, tool.name, name) ?? 0
  if (Math.max(expected, recorded) <= budget) return
  const from = expected > budget ? ('expect' as const) : ('record' as const)
  const data = { tool: at.slice(0, 2).join('.'), example: name, tokens: Math.max(expected, recorded), budget, from }
  reportAt(check, from === 'expect' ? [...at, 'expect'] : at, { code: 'result-budget', data })
}
