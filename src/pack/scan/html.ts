/**
 * Secrets in HTML attributes: the value of an `<input type=password>` and the cookie of a
 * `<meta http-equiv=Set-Cookie>`. Tags are read as a browser reads them (quoted values may hold
 * `>`, unquoted values end at a space or `>`), in one pass: each tag is read once, and reading
 * goes on where the tag ended, so the work is linear in the text.
 */
import { type Hit, isPlaceholder, mask } from './hit'
import { cookieSecret } from './patterns'

interface Attribute {
  value: string
  offset: number
}

const TAG_START = String.raw`<(input|meta)(?=[\s/>])`
const SPACE_RE = /[\s/]/

/** Reads the attributes of a tag from `i` (after its name) to its `>`: lower-cased names to values. */
function readAttributes(text: string, i: number): { attributes: Map<string, Attribute>; end: number } {
  const attributes = new Map<string, Attribute>()
  while (i < text.length) {
    while (i < text.length && SPACE_RE.test(text[i]!)) i++
    if (i >= text.length || text[i] === '>') return { attributes, end: i + 1 }
    const nameStart = i
    while (i < text.length && !/[\s/>=]/.test(text[i]!)) i++
    const name = text.slice(nameStart, i).toLowerCase()
    while (i < text.length && /\s/.test(text[i]!)) i++
    if (text[i] !== '=') {
      if (!attributes.has(name)) attributes.set(name, { value: '', offset: nameStart })
      continue
    }
    i++
    while (i < text.length && /\s/.test(text[i]!)) i++
    const quote = text[i] === '"' || text[i] === "'" ? text[i]! : ''
    const start = quote ? i + 1 : i
    let end = start
    if (quote) {
      end = text.indexOf(quote, start)
      if (end < 0) end = text.length
    } else while (end < text.length && !/[\s>]/.test(text[end]!)) end++
    if (!attributes.has(name)) attributes.set(name, { value: text.slice(start, end), offset: start })
    i = quote ? end + 1 : end
  }
  return { attributes, end: i }
}

/** What an `<input>` or `<meta>` holds that is a secret. */
function tagHit(tag: string, attributes: Map<string, Attribute>): Hit | undefined {
  if (tag === 'input' && attributes.get('type')?.value.trim().toLowerCase() === 'password') {
    const value = attributes.get('value')
    if (!value?.value || isPlaceholder(value.value)) return undefined
    return { offset: value.offset, rule: 'password', message: `a value in a password field ${mask(value.value)}` }
  }
  if (tag === 'meta' && attributes.get('http-equiv')?.value.trim().toLowerCase() === 'set-cookie') {
    const content = attributes.get('content')
    const found = content && cookieSecret(content.value)
    if (!found || !content) return undefined
    const offset = content.offset + Math.max(0, content.value.indexOf(found.value))
    return { offset, rule: 'cookie', message: `a cookie set by a meta tag ${mask(found.value)} (${found.name})` }
  }
  return undefined
}

/** Every password field value and meta-set cookie in `text`. */
export function htmlHits(text: string): Hit[] {
  const hits: Hit[] = []
  const tagStart = new RegExp(TAG_START, 'gi')
  for (let match = tagStart.exec(text); match; match = tagStart.exec(text)) {
    const { attributes, end } = readAttributes(text, match.index + match[0].length)
    const hit = tagHit(match[1]!.toLowerCase(), attributes)
    if (hit) hits.push(hit)
    // On from where the tag ended: each character is read once.
    tagStart.lastIndex = Math.max(end, match.index + 1)
  }
  return hits
}
