import { messageOf, siteToolError } from './errors'
import { cycleAt } from './text'

/** Who a result came from, as its error names it. */
interface ResultOf {
  siteId: string
  tool: string
  file?: string
}

type Problem = string | undefined

/** A value's `toJSON()` result, as JSON.stringify would use it. */
function jsonValue(value: unknown): unknown {
  const toJSON = (value as { toJSON?: unknown } | null)?.toJSON
  return typeof toJSON === 'function' ? toJSON.call(value) : value
}

/** Where and why a value is not JSON data: a cycle, a BigInt, or a member that throws when read. */
function findProblem(value: unknown, path: string, parents: unknown[]): Problem {
  let current: unknown
  try {
    current = jsonValue(value)
  } catch (error) {
    return `${path} threw when read: ${messageOf(error)}`
  }
  if (typeof current === 'bigint') return `${path} is a BigInt (return it as a string or a number)`
  if (!current || typeof current !== 'object') return undefined
  if (parents.includes(current)) return cycleAt(path)
  parents.push(current)
  try {
    return findInMembers(current, path, parents)
  } finally {
    parents.pop()
  }
}

function findInMembers(object: object, path: string, parents: unknown[]): Problem {
  let keys: string[]
  try {
    keys = Object.keys(object)
  } catch (error) {
    return `${path} threw when read: ${messageOf(error)}`
  }
  for (const key of keys) {
    let member: unknown
    const at = Array.isArray(object) ? `${path}[${key}]` : `${path}.${key}`
    try {
      member = (object as Record<string, unknown>)[key]
    } catch (error) {
      return `${at} threw when read: ${messageOf(error)}`
    }
    const problem = findProblem(member, at, parents)
    if (problem) return problem
  }
  return undefined
}

/**
 * A tool's result as JSON text (`null` for `undefined`), or an `invalid-result` SiteToolError
 * saying where it is not JSON data: the CLI and the MCP server print results, and a cycle, a
 * BigInt or a throwing getter must not surface as JSON.stringify's own error and stack.
 */
export function resultJson(value: unknown, from: ResultOf, indent?: number): string {
  try {
    return JSON.stringify(value ?? null, null, indent)
  } catch (error) {
    let json: Problem
    try {
      json = findProblem(value, 'result', [])
    } catch {
      // Nested past the stack (as JSON.stringify found too): the engine's words say it.
    }
    json ??= messageOf(error).split('\n')[0]!
    throw siteToolError('invalid-result', { json }, { ...from, cause: error })
  }
}
