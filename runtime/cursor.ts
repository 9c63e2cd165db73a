/**
 * The `cursor` of a paged result (SPEC 12): opaque to models, base64url of a small JSON object that
 * says where the next page starts and which call it continues (a digest of the site, the tool and
 * its arguments). A cursor of another tool or other arguments, or one that was edited, is refused.
 */
import { siteToolError } from './shared'

/** A path inside a result: keys and array indexes. */
export type ValuePath = (string | number)[]

/** What a cursor holds. */
export interface CursorState {
  /** The digest of the call it continues. */
  d: string
  /** Where the paged array is: `[]` for the result itself, `[key]` for a member; absent: nothing is paged. */
  p?: [] | [string]
  /** The index of the first item of the page. */
  o: number
  /**
   * A string that was cut: its path in the result, the character its rest starts at, and the length the
   * page that began cutting (the last without a string continued) kept its strings at.
   */
  s?: [ValuePath, number, number]
}

/** The call a cursor belongs to. */
export interface CallRef {
  siteId: string
  tool: string
  /** The tool's own arguments (without the cursor). */
  args: Record<string, unknown>
  /** The tool's file, which an error about its result names. */
  file?: string
}

/** JSON with every object's keys in order: the same arguments give the same text, however a model ordered them. */
function stableJson(value: unknown, depth = 0): string {
  if (value === null || typeof value !== 'object' || depth > 64) return JSON.stringify(value) ?? 'null'
  if (Array.isArray(value)) return `[${value.map((v) => stableJson(v, depth + 1)).join(',')}]`
  const keys = Object.keys(value).sort()
  const record = value as Record<string, unknown>
  return `{${keys.map((k) => `${JSON.stringify(k)}:${stableJson(record[k], depth + 1)}`).join(',')}}`
}

/** Two 32-bit FNV-1a hashes with different primes (a check that a cursor fits its call, not a secret). */
function hash(text: string): string {
  let a = 0x811c9dc5
  let b = 0x01000193
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i)
    a = Math.imul(a ^ c, 0x01000193)
    b = Math.imul(b ^ c, 0x5bd1e995)
  }
  return (a >>> 0).toString(36) + (b >>> 0).toString(36)
}

/** The digest of a call. */
export const callDigest = (call: CallRef) => hash(`${call.siteId}\0${call.tool}\0${stableJson(call.args)}`)

function toBase64Url(text: string): string {
  let binary = ''
  for (const byte of new TextEncoder().encode(text)) binary += String.fromCharCode(byte)
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '')
}

function fromBase64Url(text: string): string {
  const binary = atob(text.replace(/-/g, '+').replace(/_/g, '/'))
  return new TextDecoder('utf-8', { fatal: true }).decode(Uint8Array.from(binary, (c) => c.charCodeAt(0)))
}

export const encodeCursor = (state: CursorState) => toBase64Url(JSON.stringify(state))

/** The most characters a cursor may have: one this runtime made is far shorter. */
const CURSOR_MAX = 4096
const CURSOR_RE = /^[\w-]+$/

const isIndex = (n: unknown): n is number => Number.isSafeInteger(n) && (n as number) >= 0
const isPath = (p: unknown): p is ValuePath =>
  Array.isArray(p) && p.length <= 64 && p.every((k) => typeof k === 'string' || isIndex(k))

/** Whether a parsed value has a cursor's shape. */
function isCursorState(v: unknown): v is CursorState {
  if (v === null || typeof v !== 'object' || Array.isArray(v)) return false
  const { d, p, o, s } = v as Record<string, unknown>
  if (typeof d !== 'string' || !isIndex(o)) return false
  if (p !== undefined && !(Array.isArray(p) && p.length <= 1 && p.every((k) => typeof k === 'string'))) return false
  return s === undefined || (Array.isArray(s) && s.length === 3 && isPath(s[0]) && isIndex(s[1]) && isIndex(s[2]))
}

/** The state of a cursor given for `call`, or an `invalid-cursor` error. */
export function readCursor(cursor: unknown, call: CallRef): CursorState {
  const at = { siteId: call.siteId, tool: call.tool }
  let state: unknown
  try {
    if (typeof cursor !== 'string' || cursor.length > CURSOR_MAX || !CURSOR_RE.test(cursor)) throw new Error()
    state = JSON.parse(fromBase64Url(cursor))
  } catch {
    throw siteToolError('invalid-cursor', { reason: 'malformed' }, at)
  }
  if (!isCursorState(state)) throw siteToolError('invalid-cursor', { reason: 'malformed' }, at)
  if (state.d !== callDigest(call)) throw siteToolError('invalid-cursor', { reason: 'other-call' }, at)
  return state
}
