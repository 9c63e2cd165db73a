import { ProtocolError, ProtocolErrorCode } from '@modelcontextprotocol/server'
import { isRecord } from '../../runtime/internal'

/**
 * The checks of the params of the requests the server answers, made before the SDK's own: a
 * request that breaks one gets InvalidParams (-32602) with a short message naming the field,
 * where the SDK would answer a dump of its schema's issues (and -32603 for some methods).
 */

const LEVELS = ['debug', 'info', 'notice', 'warning', 'error', 'critical', 'alert', 'emergency']

type Params = Record<string, unknown>
/** What is wrong with the params of a request (undefined: nothing this check knows of). */
type Check = (params: Params) => string | undefined

function string(name: string, required: boolean): Check {
  return (params) => {
    const value = params[name]
    if (value === undefined) return required ? `"${name}" is required` : undefined
    return typeof value === 'string' ? undefined : `"${name}" must be a string`
  }
}

function object(name: string): Check {
  return (params) => (params[name] === undefined || isRecord(params[name]) ? undefined : `"${name}" must be an object`)
}

const level: Check = (params) =>
  typeof params.level === 'string' && LEVELS.includes(params.level)
    ? undefined
    : `"level" must be one of ${LEVELS.join(', ')}, not ${JSON.stringify(params.level ?? null)}`

const cursor = [string('cursor', false)]

const CHECKS: Record<string, readonly Check[]> = {
  'tools/list': cursor,
  'tools/call': [string('name', true), object('arguments')],
  'resources/list': cursor,
  'resources/read': [string('uri', true)],
  'prompts/list': cursor,
  'prompts/get': [string('name', true), object('arguments')],
  'logging/setLevel': [level],
}

/** Throws InvalidParams with what is wrong with the params of a `method` request, if anything. */
export function checkParams(method: string, params: unknown): void {
  const checks = CHECKS[method]
  if (!checks) return
  if (params !== undefined && !isRecord(params))
    throw new ProtocolError(ProtocolErrorCode.InvalidParams, `invalid ${method} params: they must be an object`)
  for (const check of checks) {
    const problem = check((params ?? {}) as Params)
    if (problem) throw new ProtocolError(ProtocolErrorCode.InvalidParams, `invalid ${method} params: ${problem}`)
  }
}
