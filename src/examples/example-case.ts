import type { ArgsValidator } from '../../runtime/internal'
import type { ExampleModel, ToolModel } from '../compiler/model'

/**
 * Why an example failed. On a fixture: `contract-break` (the result does not fit `returns`),
 * `expect-mismatch` (it lacks what `expect` says), `result-budget` (it is over the tool's
 * `resultBudget`: agents would get it a page at a time), `tool-error` (the call failed: the error's code
 * is in the message), `timeout`. Live (`--live`) adds `selector-drift` (fine on the fixture,
 * empty or missing fields live), `auth-wall` (sent to a login page, another domain, 401/403) and
 * `unreachable` (the page did not load).
 */
type FailureKind =
  | 'contract-break'
  | 'result-budget'
  | 'expect-mismatch'
  | 'tool-error'
  | 'timeout'
  | 'selector-drift'
  | 'auth-wall'
  | 'unreachable'

/** One example's outcome, as `site-skills test --json` lists it. */
export interface ExampleResult {
  siteId: string
  tool: string
  example: string
  status: 'pass' | 'fail'
  kind?: FailureKind
  message?: string
  /** `selector-drift`: the result's fields full on the fixture and empty or missing live. */
  fields?: string[]
  /** The result's tokens as compact text (the runtime's estimate), when the call returned one. */
  tokens?: number
}

/** An example with what is needed to run and judge it. */
export interface ExampleCase {
  siteId: string
  /** The skill's normalized domain patterns. */
  domains: readonly string[]
  tool: ToolModel
  example: ExampleModel
  /** The generated check of the tool's `returns`. */
  checkReturns: ArgsValidator
  /** The tool's result budget (its own, its skill's or the default); absent when the runtime does not page it. */
  budget?: number
}

/** A failure, before it is tied to its example. */
export interface Failure {
  kind: FailureKind
  message: string
  /** `selector-drift`: the result's fields full on the fixture and empty or missing live. */
  fields?: string[]
}

/** What an example's run says: why it failed, if it did, and its result's tokens, when it returned one. */
export interface Verdict {
  failure?: Failure
  tokens?: number
}

/** A call's outcome: its value, or why it failed. */
export type Outcome = { value: unknown } | { failure: Failure }
