import { resultTokens, typeOf } from '../../runtime/internal'
import { isSiteToolError } from '../../runtime/index'
import { findMismatch } from './expect'
import type { ExampleCase, Failure, Verdict } from './example-case'

/** A returns-check finding in words: `result.products[0].price must be a number (got string)`. */
function resultMessage([path, expected, actual]: [string, string, unknown?]): string {
  if (expected === 'present') return `${path} is missing (the tool's returns requires it)`
  const got = expected.startsWith('one of') ? JSON.stringify(actual)?.slice(0, 80) : typeOf(actual)
  return `${path} must be ${expected} (got ${got})`
}

/** Whether the result fits the tool's `returns`. */
export function checkContract(c: ExampleCase, value: unknown): Failure | undefined {
  const problem = c.checkReturns(value as Record<string, unknown>)
  return problem ? { kind: 'contract-break', message: resultMessage(problem) } : undefined
}

/**
 * Whether the result fits `returns`, then whether it contains what `expect` says, then whether it
 * is within the tool's result budget; with the result's tokens (the runtime's estimate).
 */
export function judge(c: ExampleCase, value: unknown): Verdict {
  const tokens = resultTokens(value)
  const contract = checkContract(c, value)
  if (contract) return { failure: contract, tokens }
  const mismatch = c.example.expect && findMismatch(value, c.example.expect.value)
  if (mismatch) return { failure: { kind: 'expect-mismatch', message: mismatch }, tokens }
  if (c.budget === undefined || tokens <= c.budget) return { tokens }
  const message =
    `the result is about ${tokens.toLocaleString('en-US')} tokens, over the resultBudget of ` +
    `${c.budget.toLocaleString('en-US')}: agents get it a page at a time`
  return { failure: { kind: 'result-budget', message }, tokens }
}

/** A failed call: `timeout`, or `tool-error` with the runtime's code. Anything else is a bug and rethrown. */
export function callFailure(error: unknown): Failure {
  if (isSiteToolError(error, 'timeout')) return { kind: 'timeout', message: error.message }
  // The message already ends with the tool's file and line when the error has them.
  if (isSiteToolError(error)) return { kind: 'tool-error', message: `${error.code}: ${error.message}` }
  throw error
}
