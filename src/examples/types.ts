import type { ArgsValidator } from '../../runtime/internal'
import type { ExampleModel, ToolModel } from '../compiler/model'

/**
 * Why an example failed. On a fixture: `contract-break` (the result does not fit `returns`),
 * `expect-mismatch` (it lacks what `expect` says), `tool-error` (the call failed: the error's code
 * is in the message), `timeout`. Live (`--live`) adds `selector-drift` (fine on the fixture,
 * empty or missing fields live), `auth-wall` (sent to a login page, another domain, 401/403) and
 * `unreachable` (the page did not load).
 */
type FailureKind =
  | 'contract-break'
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
}

/** A failure, before it is tied to its example. */
export interface Failure {
  kind: FailureKind
  message: string
  /** `selector-drift`: the result's fields full on the fixture and empty or missing live. */
  fields?: string[]
}

/** A call's outcome: its value, or why it failed. */
export type Outcome = { value: unknown } | { failure: Failure }
