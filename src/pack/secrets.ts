/**
 * The secret scan `site-skills pack` runs before it writes anything. A file is decoded first
 * (UTF-16 by its byte order mark or NUL bytes, `scan/decode`), then read by:
 *
 * - secretlint's recommended preset (`@secretlint/secretlint-rule-preset-recommend`, an optional
 *   peer): private keys, AWS, GCP, GitHub, GitLab, Slack, npm, SendGrid, Shopify, OpenAI,
 *   Anthropic, Hugging Face, Linear, Vercel, Databricks, 1Password and more, plus basic-auth URLs
 *   and database connection strings with passwords;
 * - readers of our own for what a saved page or a recording of a logged-in session holds and that
 *   preset leaves out: provider keys with a shape of their own (Google, Azure, Stripe), JWTs,
 *   private key headers, Authorization headers and cookies (`scan/patterns`); JSON by its structure
 *   (HAR headers and cookies, cookie exports, secret-named keys: `scan/json`); HTML attributes
 *   (`scan/html`); secret-named values in any text (`scan/names`); private keys in base64
 *   (`scan/base64`).
 *
 * Every reader is linear in the file (SPEC 10; the bench's `hostile` row runs each on a 120 KB
 * input). Every finding has its 1-based line and column; values are masked in messages.
 */
import { lintSource } from '@secretlint/core'
import { creator as recommended } from '@secretlint/secretlint-rule-preset-recommend'
import { createLineIndex } from '../compiler/parse'
import { base64Hits } from './scan/base64'
import { decodeText } from './scan/decode'
import type { Hit } from './scan/hit'
import { htmlHits } from './scan/html'
import { jsonHits } from './scan/json'
import { namedValues } from './scan/secret-names'
import { patternHits } from './scan/patterns'

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

/** What our own readers find in `text`; JSON is read by its structure, and by the text rules too. */
function ownHits(text: string): Hit[] {
  const json = /^\s*[[{]/.test(text) ? jsonHits(text) : undefined
  // In JSON, `"key": "value"` pairs are the structure's to judge (with the object around them).
  const named = json ? [] : namedValues(text)
  return [...patternHits(text), ...htmlHits(text), ...named, ...(json ?? []), ...base64Hits(text)]
}

/** Own rules that back secretlint's up: dropped where secretlint found the same on that line. */
const BACKUPS: Record<string, string> = {
  'site-skills/aws': 'secretlint/aws',
  'site-skills/private-key': 'secretlint/privatekey',
}

/** The rule of a generated-looking value under a secret-like name. */
const GENERIC = 'site-skills/secret-value'

const byPlace = (a: SecretFinding, b: SecretFinding) =>
  a.line - b.line || a.column - b.column || (a.rule < b.rule ? -1 : a.rule > b.rule ? 1 : 0)

/** Every secret found in one file, in order of position; one per place. */
export async function scanFile(bytes: Buffer, path: string): Promise<SecretFinding[]> {
  const text = decodeText(bytes)
  const theirs = await scanSecretlint(text, path)
  const covered = new Set(theirs.map((f) => `${f.line}\0${f.rule}`))
  const at = createLineIndex(text)
  const ours = ownHits(text)
    .map((hit) => ({ ...at(hit.offset), rule: `site-skills/${hit.rule}`, message: hit.message }))
    .filter((f) => !(f.rule in BACKUPS && covered.has(`${f.line}\0${BACKUPS[f.rule]}`)))
  const all = [...theirs, ...ours]
  // A value judged by its name alone says nothing more where a rule that knows its kind found it.
  const known = new Set(all.filter((f) => f.rule !== GENERIC).map((f) => f.line))
  const seen = new Set<string>()
  return all.sort(byPlace).filter((f) => {
    if (f.rule === GENERIC && known.has(f.line)) return false
    const key = `${f.line}:${f.column}`
    if (seen.has(key)) return false
    seen.add(key)
    return true
  })
}
