/**
 * Secrets with a shape of their own, found in any text: keys and tokens of providers secretlint's
 * recommended preset leaves out (Google API keys, Azure storage keys, Stripe live keys), private
 * key headers (PEM and PuTTY), JWTs, AWS secrets in escaped JSON, `Authorization` headers and
 * cookie headers written out. Each pattern starts with a lookbehind that its first character's run
 * cannot pass, so it is tried once per run, and has only bounded quantifiers: linear in the text.
 */
import { type Hit, isPlaceholder, mask } from './hit'

interface PatternRule {
  rule: string
  re: RegExp
  /** What was found, or undefined when the match is no secret; `value` is the part to point at. */
  describe: (match: RegExpExecArray) => { message: string; value?: string } | undefined
}

/** Base64url JSON of a JWT header: an object that names its algorithm or type. */
function isJwtHeader(segment: string): boolean {
  try {
    const header = JSON.parse(Buffer.from(segment, 'base64url').toString('utf8'))
    return !!header && typeof header === 'object' && ('alg' in header || 'typ' in header)
  } catch {
    return false
  }
}

/** Cookie names that are no secret (consent and layout preferences). */
export const HARMLESS_COOKIE_RE = /^(?:consent|cookie_?consent|theme|lang|locale|tz|timezone|_ga|_gid|_gat)$/i

/** The first `name=value` of a cookie header's text whose value is 8 characters or more and no placeholder. */
export function cookieSecret(header: string): { name: string; value: string } | undefined {
  for (const pair of header.slice(0, 8192).split(';')) {
    const eq = pair.indexOf('=')
    if (eq <= 0) continue
    const name = pair.slice(0, eq).trim()
    const value = pair
      .slice(eq + 1)
      .trim()
      .replace(/^"|"$/g, '')
    if (/^(?:path|domain|expires|max-age|samesite)$/i.test(name) || HARMLESS_COOKIE_RE.test(name)) continue
    if (value.length >= 8 && !isPlaceholder(value) && !/\s/.test(value)) return { name, value }
  }
  return undefined
}

const RULES: readonly PatternRule[] = [
  {
    rule: 'private-key',
    re: /(?<!-)-----BEGIN (?:[A-Z0-9]{1,16} ){0,3}PRIVATE KEY(?: BLOCK)?-----/g,
    describe: (m) => ({ message: `a private key (${m[0].slice(11, -5)})` }),
  },
  {
    rule: 'private-key',
    re: /(?<![\w-])PuTTY-User-Key-File-\d{1,2}: {0,4}[\w-]{1,32}/g,
    describe: () => ({ message: 'a PuTTY private key' }),
  },
  {
    rule: 'google-api-key',
    re: /(?<![\w-])AIza[\w-]{35}(?![\w-])/g,
    describe: (m) => ({ message: `a Google API key ${mask(m[0])}` }),
  },
  {
    rule: 'azure-storage-key',
    re: /(?<!\w)AccountKey=([A-Za-z0-9+/]{40,128}={0,2})/g,
    describe: (m) => ({ message: `an Azure storage account key ${mask(m[1]!)}`, value: m[1] }),
  },
  {
    rule: 'stripe',
    re: /(?<![\w-])[rs]k_live_[0-9A-Za-z]{16,128}(?![0-9A-Za-z])/g,
    describe: (m) => ({ message: `a Stripe live key ${mask(m[0])}` }),
  },
  {
    rule: 'jwt',
    re: /(?<![\w.-])eyJ[\w-]{8,4096}\.eyJ[\w-]{8,16384}\.[\w-]{0,2048}/g,
    describe: (m) => (isJwtHeader(m[0].split('.')[0]!) ? { message: `a JSON Web Token ${mask(m[0])}` } : undefined),
  },
  {
    rule: 'aws',
    re: /(?<![\w])aws_?secret_?access_?key\\?["']?[ \t]{0,8}(?::|=>|=)[ \t]{0,8}\\?["']?([A-Za-z0-9/+=]{40})(?![A-Za-z0-9/+=])/gi,
    describe: (m) => ({ message: `an AWS secret access key ${mask(m[1]!)}`, value: m[1] }),
  },
  {
    rule: 'authorization',
    re: /(?<![\w-])(?:proxy-)?authorization\\?["']?[ \t]{0,8}[:=][ \t]{0,8}\\?["']?(basic|bearer|token|digest)[ \t]{1,8}([\w.~+/=-]{8,4096})/gi,
    describe: (m) =>
      isPlaceholder(m[2]!) ? undefined : { message: `an Authorization header (${m[1]}) ${mask(m[2]!)}`, value: m[2] },
  },
  {
    rule: 'cookie',
    re: /(?<![\w-])(?:(?:set-)?cookie\\?["']?[ \t]{0,8}[:=][ \t]{0,8}\\?["']?|document\.cookie[ \t]{0,8}=[ \t]{0,8}["'`])([^\r\n"'`\\]{1,8192})/gi,
    describe: (m) => {
      const found = cookieSecret(m[1]!)
      return found && { message: `a cookie value ${mask(found.value)} (${found.name})`, value: found.value }
    },
  },
]

/** Every secret with a shape of its own in `text`, at the start of its value. */
export function patternHits(text: string): Hit[] {
  const hits: Hit[] = []
  for (const { rule, re, describe } of RULES) {
    for (const match of text.matchAll(re)) {
      const found = describe(match)
      if (!found) continue
      const at = found.value === undefined ? 0 : match[0].lastIndexOf(found.value)
      hits.push({ offset: match.index + Math.max(0, at), rule, message: found.message })
    }
  }
  return hits
}
