/**
 * Secrets in JSON by its structure (recordings, HAR files, cookie exports, saved API answers): one
 * pass of jsonc-parser's visitor, which gives each key and value with its offset. An object is
 * judged when it closes, whatever the order of its keys:
 *
 * - `{ "name": "Authorization", "value": "Basic ..." }` (a HAR header): the credentials;
 * - `{ "name": "Cookie" | "Set-Cookie", "value": "sid=..." }`: a session cookie;
 * - `{ "name": "sid", "value": "...", "domain" | "path" | "httpOnly" ... }` (HAR cookies, the
 *   Cookie-Editor and browser exports, value key first or last): a cookie;
 * - `{ "name": "password", "value": "..." }` (a HAR form field) and every `"key": "value"`: by the name;
 * - a string holding HTML or a form body (a response, a request): its password fields, meta cookies
 *   and secret-named values, each at its place in the JSON text.
 */
import { visit } from 'jsonc-parser'
import { type Hit, isPlaceholder, mask } from './hit'
import { htmlHits } from './html'
import { namedValues, secretByName } from './secret-names'
import { HARMLESS_COOKIE_RE, cookieSecret } from './patterns'

interface StringValue {
  value: string
  /** Offset of the value's first character (after its quote). */
  offset: number
}

/**
 * Offsets in the JSON text of places in a string's decoded value (`indices`, ascending), the
 * string's first character at `start`: one pass over its escapes (`\n` is 2 characters there,
 * `\u00e9` 6, for 1 of the value).
 */
function rawOffsets(text: string, start: number, indices: readonly number[]): number[] {
  const out: number[] = []
  let raw = start
  let decoded = 0
  for (const index of indices) {
    while (decoded < index && raw < text.length) {
      raw += text[raw] !== '\\' ? 1 : text[raw + 1] === 'u' ? 6 : 2
      decoded++
    }
    out.push(raw)
  }
  return out
}

/** The string values of an object being read (a key that repeats keeps its last value). */
type Frame = Map<string, StringValue>

const COOKIE_KEYS = ['domain', 'path', 'expires', 'expirationDate', 'httpOnly', 'secure', 'sameSite', 'hostOnly']
const MIN_COOKIE = 8
const AUTH_RE = /^(basic|bearer|token|digest)\s{1,8}(\S{8,4096})$/i

/** What a `{ name, value }` object holds that is a secret. */
function pairHit(text: string, frame: Frame, keys: ReadonlySet<string>): Hit | undefined {
  const name = frame.get('name')?.value
  const value = frame.get('value')
  if (name === undefined || !value || !value.value) return undefined
  const at = (message: string, rule: string, offset = value.offset) => ({ offset, rule, message })
  const lower = name.toLowerCase()
  if (lower === 'authorization' || lower === 'proxy-authorization') {
    const auth = AUTH_RE.exec(value.value.trim())
    if (!auth || isPlaceholder(auth[2]!)) return undefined
    return at(`an Authorization header (${auth[1]}) ${mask(auth[2]!)}`, 'authorization')
  }
  if (lower === 'cookie' || lower === 'set-cookie') {
    const found = cookieSecret(value.value)
    const offset = found ? rawOffsets(text, value.offset, [Math.max(0, value.value.indexOf(found.value))])[0] : 0
    return found && at(`a cookie header ${mask(found.value)} (${found.name})`, 'cookie', offset)
  }
  if (COOKIE_KEYS.some((k) => keys.has(k))) {
    if (HARMLESS_COOKIE_RE.test(name) || value.value.length < MIN_COOKIE || isPlaceholder(value.value)) return undefined
    return at(`a cookie ${name} = ${mask(value.value)}`, 'cookie')
  }
  const secret = secretByName(name, value.value)
  return secret && { offset: value.offset, ...secret }
}

/** Nesting read by structure: jsonc-parser's visitor recurses once per level (10,000 overflow the stack). */
const MAX_DEPTH = 256

/** Whether `text` nests arrays and objects deeper than MAX_DEPTH (strings skipped; one pass). */
function tooDeep(text: string): boolean {
  let depth = 0
  let inString = false
  for (let i = 0; i < text.length; i++) {
    const c = text[i]
    if (inString) {
      if (c === '\\') i++
      else if (c === '"') inString = false
    } else if (c === '"') inString = true
    else if (c === '{' || c === '[') {
      if (++depth > MAX_DEPTH) return true
    } else if (c === '}' || c === ']') depth--
  }
  return false
}

/** Every secret in a JSON text found by its structure; undefined when the text is no JSON (or too deep to walk). */
export function jsonHits(text: string): Hit[] | undefined {
  if (tooDeep(text)) return undefined
  const hits: Hit[] = []
  const frames: { strings: Frame; keys: Set<string> }[] = []
  let key: string | undefined
  let broken = false
  visit(
    text,
    {
      onObjectBegin: () => {
        frames.push({ strings: new Map(), keys: new Set() })
        key = undefined
      },
      onObjectProperty: (property) => {
        key = property
        frames.at(-1)?.keys.add(property)
      },
      onObjectEnd: () => {
        const frame = frames.pop()
        const hit = frame && pairHit(text, frame.strings, frame.keys)
        if (hit) hits.push(hit)
        key = undefined
      },
      onArrayBegin: () => {
        key = undefined
      },
      onLiteralValue: (value: unknown, offset: number) => {
        if (key === undefined || typeof value !== 'string') return
        const string = { value, offset: offset + 1 }
        frames.at(-1)?.strings.set(key, string)
        const secret = key === 'value' || key === 'name' ? undefined : secretByName(key, value)
        if (secret) hits.push({ offset: string.offset, ...secret })
        // A saved page or a form body inside a recording: its places mapped back through the escapes.
        const inner = [
          ...(value.includes('<') ? htmlHits(value) : []),
          ...(/[=:]/.test(value) ? namedValues(value) : []),
        ].sort((a, b) => a.offset - b.offset)
        const offsets = rawOffsets(
          text,
          string.offset,
          inner.map((hit) => hit.offset),
        )
        for (const [i, hit] of inner.entries()) hits.push({ ...hit, offset: offsets[i]! })
        key = undefined
      },
      onError: () => {
        broken = true
      },
    },
    { disallowComments: true },
  )
  return broken ? undefined : hits
}
