/**
 * The secret scan `site-skills pack` runs before it writes anything. Two sets of rules:
 *
 * - secretlint's recommended preset (`@secretlint/secretlint-rule-preset-recommend`, an optional
 *   peer): private keys, AWS, GCP, GitHub, GitLab, Slack, npm, SendGrid, Shopify, OpenAI,
 *   Anthropic, Hugging Face, Linear, Vercel, Databricks, 1Password and more, plus basic-auth URLs
 *   and database connection strings with passwords;
 * - rules of our own for what a saved page or a recording of a logged-in session holds and that
 *   preset does not look for: JWTs, session cookies and password values (SPEC 10).
 *
 * Every finding has its 1-based line and column; values are masked in messages.
 */
import { lintSource } from '@secretlint/core'
import { creator as recommended } from '@secretlint/secretlint-rule-preset-recommend'
import { createLineIndex } from '../compiler/parse'

export interface SecretFinding {
  line: number
  column: number
  /** The rule that found it: `secretlint/<rule>` or `site-skills/<rule>`. */
  rule: string
  /** What was found, the value masked. */
  message: string
}

const SECRETLINT_CONFIG = {
  rules: [
    {
      id: '@secretlint/secretlint-rule-preset-recommend',
      rule: recommended,
      // AWS access key ids (AKIA...) too: in a saved page they come with their secret.
      rules: [{ id: '@secretlint/secretlint-rule-aws', options: { enableIDScanRule: true } }],
    },
  ],
}

/** A value shown in a message: its first 4 characters, the rest as stars (at most 12). */
function mask(value: string): string {
  return `${value.slice(0, 4)}${'*'.repeat(Math.min(12, Math.max(4, value.length - 4)))}`
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

/** A JWT: header and payload are base64url JSON (`eyJ` is `{"`), then a signature (empty for `alg: none`). */
const JWT_RE = /\beyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]*/g

/**
 * A cookie header or property with a value: `Cookie: sid=...`, `Set-Cookie: ...`, `"cookie": "a=b"`,
 * `document.cookie = "a=b"`. The value must hold `name=value` with at least 8 characters of value.
 */
const COOKIE_RE =
  /(?:\b(?:set-)?cookie["']?\s*[:=]\s*["']?|document\.cookie\s*=\s*["'`])(?<value>[^"'`\r\n]*?\b[\w.-]+=[^;"'`\s\r\n]{8,})/gi

/**
 * A cookie in a recording's JSON (a HAR or a browser's cookie list): `{ "name": "sid", "value": "..." }`
 * with a value of 8 characters or more.
 */
const COOKIE_OBJECT_RE =
  /"name"\s*:\s*"(?<name>[^"\r\n]{1,200})"\s*,\s*"value"\s*:\s*"(?<value>[^"\\\r\n]{8,})"\s*,\s*"(?:domain|path|expires|httpOnly|secure|sameSite)"/gi

/** A cookie header in a recording's JSON (HAR headers): `{ "name": "Cookie", "value": "sid=..." }`. */
const COOKIE_HEADER_OBJECT_RE =
  /"name"\s*:\s*"(?:set-)?cookie"\s*,\s*"value"\s*:\s*"(?<value>[^"\r\n]*?\b[\w.-]+=[^;"\s\r\n]{8,}[^"\r\n]*)"/gi

/** Cookie names that are no secret (consent and layout preferences). */
const HARMLESS_COOKIE_RE = /^(?:consent|cookie_?consent|theme|lang|locale|tz|timezone|_ga|_gid)$/i

/**
 * A password given a value: a quoted string assigned to a password key (`"password": "x"`,
 * `password = 'x'`), a form or query field (`password=x&`), or an `<input type="password" value="x">`.
 */
const PASSWORD_KEY = '(?:pass(?:word|wd|phrase)?|pwd|secret|client_secret|api_?key)'
const PASSWORD_ASSIGN_RE = new RegExp(
  String.raw`["']?\b${PASSWORD_KEY}["']?\s*[:=]\s*(?<q>["'])(?<value>[^"'\r\n]{3,})\k<q>`,
  'gi',
)
const PASSWORD_FORM_RE = new RegExp(String.raw`(?:^|[?&\s"'])${PASSWORD_KEY}=(?<value>[^&\s"'#<>]{3,})`, 'gi')
const PASSWORD_INPUT_RE =
  /<input\b(?=[^>]*\btype\s*=\s*["']?password\b)[^>]*?\bvalue\s*=\s*(?<q>["'])(?<value>[^"']+)\k<q>/gi

/** Values that are placeholders, not secrets: `***`, `<password>`, `${PASSWORD}`, `process.env.X`, `your-password`. */
const PLACEHOLDER_RE =
  /^(?:[*x•.?_-]+|<[^>]*>|\{\{[^}]*\}\}|\$\{[^}]*\}|\$[A-Z_][A-Z0-9_]*|%[A-Z_]+%|process\.env\.\w+|(?:your|my|example|sample|dummy|fake|test|placeholder|redacted|changeme|hidden)[\w-]*|password|secret|none|null|undefined|true|false|string|text|current-password|new-password)$/i

interface OwnRule {
  name: string
  re: RegExp
  /** What was found; undefined when this match is no secret. */
  describe: (match: RegExpExecArray) => string | undefined
}

const secretOf = (m: RegExpExecArray) => m.groups?.value ?? m[0]

/**
 * A PEM private key block's first line, whatever follows it: secretlint's rule wants a body it can
 * check (it let an EC key of a saved page through), and any key there is one too many.
 */
const PRIVATE_KEY_RE = /-----BEGIN (?:(?:RSA|DSA|EC|OPENSSH|PGP|ENCRYPTED) )?PRIVATE KEY(?: BLOCK)?-----/g

/**
 * An AWS secret access key assigned in JSON-escaped text (`aws_secret_access_key = \\"..."` in a
 * recording), which secretlint's pattern, written for source files, does not take.
 */
const AWS_SECRET_RE =
  /\baws_?secret_?access_?key\\?["']?\s*(?::|=>|=)\s*\\?["']?(?<value>[A-Za-z0-9/+=]{40})(?![A-Za-z0-9/+=])/gi

const OWN_RULES: readonly OwnRule[] = [
  { name: 'aws', re: AWS_SECRET_RE, describe: (m) => `an AWS secret access key ${mask(secretOf(m))}` },
  { name: 'private-key', re: PRIVATE_KEY_RE, describe: (m) => `a private key (${m[0].slice(11, -5)})` },
  {
    name: 'jwt',
    re: JWT_RE,
    describe: (m) => (isJwtHeader(m[0].split('.')[0]!) ? `a JSON Web Token ${mask(m[0])}` : undefined),
  },
  {
    name: 'cookie',
    re: COOKIE_RE,
    describe: (m) => `a cookie value ${mask(secretOf(m).trim())}`,
  },
  {
    name: 'cookie',
    re: COOKIE_HEADER_OBJECT_RE,
    describe: (m) => `a cookie header ${mask(secretOf(m))}`,
  },
  {
    name: 'cookie',
    re: COOKIE_OBJECT_RE,
    describe: (m) =>
      HARMLESS_COOKIE_RE.test(m.groups!.name!) ? undefined : `a cookie ${m.groups!.name} = ${mask(secretOf(m))}`,
  },
  {
    name: 'password',
    re: PASSWORD_ASSIGN_RE,
    describe: (m) => (PLACEHOLDER_RE.test(secretOf(m)) ? undefined : `a password value ${mask(secretOf(m))}`),
  },
  {
    name: 'password',
    re: PASSWORD_FORM_RE,
    describe: (m) => (PLACEHOLDER_RE.test(secretOf(m)) ? undefined : `a password value ${mask(secretOf(m))}`),
  },
  {
    name: 'password',
    re: PASSWORD_INPUT_RE,
    describe: (m) =>
      PLACEHOLDER_RE.test(secretOf(m)) ? undefined : `a value in a password field ${mask(secretOf(m))}`,
  },
]

/** The findings of our own rules in `text`, at the start of the secret value. */
function scanOwn(text: string): SecretFinding[] {
  const at = createLineIndex(text)
  const found: SecretFinding[] = []
  for (const rule of OWN_RULES) {
    for (const match of text.matchAll(rule.re)) {
      const message = rule.describe(match)
      if (!message) continue
      const value = match.groups?.value
      const offset = match.index + (value === undefined ? 0 : match[0].lastIndexOf(value))
      found.push({ ...at(offset), rule: `site-skills/${rule.name}`, message })
    }
  }
  return found
}

/** secretlint's findings in `text` (its columns are 0-based). */
async function scanSecretlint(text: string, path: string): Promise<SecretFinding[]> {
  const ext = path.slice(path.lastIndexOf('.'))
  const result = await lintSource({
    source: { content: text, filePath: path, ext, contentType: 'text' },
    options: { config: SECRETLINT_CONFIG, maskSecrets: true },
  })
  return result.messages.map((m) => ({
    line: m.loc.start.line,
    column: m.loc.start.column + 1,
    rule: `secretlint/${m.ruleId.replace(/^@secretlint\/secretlint-rule-/, '')}`,
    message: m.message,
  }))
}

/** Own rules that back secretlint's up: dropped where secretlint found the same on that line. */
const BACKUPS: Record<string, string> = {
  'site-skills/aws': 'secretlint/aws',
  'site-skills/private-key': 'secretlint/privatekey',
}

/** Every secret found in one file's text, in order of position; one per place. */
export async function scanText(text: string, path: string): Promise<SecretFinding[]> {
  const theirs = await scanSecretlint(text, path)
  const covered = new Set(theirs.map((f) => `${f.line}\0${f.rule}`))
  const ours = scanOwn(text).filter((f) => !(f.rule in BACKUPS && covered.has(`${f.line}\0${BACKUPS[f.rule]}`)))
  const seen = new Set<string>()
  return [...theirs, ...ours]
    .sort((a, b) => a.line - b.line || a.column - b.column || (a.rule < b.rule ? -1 : a.rule > b.rule ? 1 : 0))
    .filter((f) => {
      const key = `${f.line}:${f.column}`
      if (seen.has(key)) return false
      seen.add(key)
      return true
    })
}
