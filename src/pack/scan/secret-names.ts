/**
 * Secrets found by the name they are given: a password under a password-like name
 * (`userPassword`, `DB_PASSWORD`, `pwd`), a generated value under a secret-like name
 * (`SECRET_KEY`, `api_key`, `accessToken`, `credentials`). Used on JSON keys (`json.ts`) and on
 * `name = value` / `name: value` / `name=value&` in any text (`namedValues` below).
 */
import { type Hit, isPlaceholder, looksLikePassword, looksRandom, mask } from './hit'

const PASSWORD_NAME_RE = /(?:pass(?:word|wd|phrase)|pwd|^pass|^pw)$/i
const SECRET_NAME_RE = /(?:secret|token|api_?key|(?:access|private|account|secret|client|auth)_?key|credentials?)$/i
/** Tokens that grant nothing by themselves: pagination cursors and anti-forgery tokens of a page. */
const PUBLIC_TOKEN_RE = /(?:page|cursor|continuation|sync|next|csrf|xsrf)_?token$/i

/** What a value under `name` is, if a secret: the rule and the message. */
export function secretByName(name: string, value: string): Omit<Hit, 'offset'> | undefined {
  const key = name.replace(/[-\s]/g, '_')
  if (PASSWORD_NAME_RE.test(key))
    return looksLikePassword(value)
      ? { rule: 'password', message: `a password value ${mask(value)} under ${JSON.stringify(name)}` }
      : undefined
  if (SECRET_NAME_RE.test(key) && !PUBLIC_TOKEN_RE.test(key) && !isPlaceholder(value) && looksRandom(value))
    return { rule: 'secret-value', message: `a secret value ${mask(value)} under ${JSON.stringify(name)}` }
  return undefined
}

/**
 * `name` then `=`, `:` or `=>` (quotes around the name allowed), starting only where a name can
 * start (so each place is tried once: linear), the name at most 64 characters.
 */
const ASSIGN_RE = /(?<![\w.$-])["']?([A-Za-z_$][\w.$-]{0,63})["']?[ \t]{0,8}(?:=>|:|=)[ \t]{0,8}/g
/** Where an unquoted value ends. */
const VALUE_END_RE = /[\s&;,<>"'`)\]}]/
const MAX_VALUE = 512

/** The value after an assignment at `start`: quoted up to its closing quote, else up to a delimiter. */
function valueAt(text: string, start: number): { value: string; offset: number } | undefined {
  const quote = text[start]
  if (quote === '"' || quote === "'" || quote === '`') {
    const window = text.slice(start + 1, start + 2 + MAX_VALUE)
    const end = window.indexOf(quote)
    if (end < 0 || window.slice(0, end).includes('\n')) return undefined
    return { value: window.slice(0, end), offset: start + 1 }
  }
  // `${NAME}` and `{{name}}` are one value (placeholders), whatever they hold.
  const braced = /^(?:\$\{|\{\{)[^}\n]{0,64}\}{1,2}/.exec(text.slice(start, start + 72))
  if (braced) return { value: braced[0], offset: start }
  let end = start
  while (end < text.length && end - start <= MAX_VALUE && !VALUE_END_RE.test(text[end]!)) end++
  return end > start ? { value: text.slice(start, end), offset: start } : undefined
}

/** Every `name = value` in `text` whose name says it is a secret and whose value looks like one. */
export function namedValues(text: string): Hit[] {
  const hits: Hit[] = []
  for (const match of text.matchAll(ASSIGN_RE)) {
    const name = match[1]!
    if (!PASSWORD_NAME_RE.test(name) && !SECRET_NAME_RE.test(name.replace(/-/g, '_'))) continue
    const found = valueAt(text, match.index + match[0].length)
    const secret = found && secretByName(name, found.value)
    if (secret && found) hits.push({ offset: found.offset, ...secret })
  }
  return hits
}
