/**
 * Private keys hidden in base64 (a Kubernetes Secret's `data`, a key pasted encoded): each run of
 * 60 base64 characters or more is decoded and read for a PEM or PuTTY key header. Runs are found
 * from their first character only and their decoded bytes are capped, so the work is linear.
 */
import type { Hit } from './hit'

const RUN_RE = /(?<![A-Za-z0-9+/=_-])[A-Za-z0-9+/]{60,}={0,2}/g
/** Decoded bytes read per file: past them, runs are not decoded. */
const MAX_DECODED = 8 * 1024 * 1024
/** Characters of one run decoded (a key is far shorter). */
const MAX_RUN = 64 * 1024

const KEY_RE = /-----BEGIN (?:[A-Z0-9]{1,16} ){0,3}PRIVATE KEY(?: BLOCK)?-----|PuTTY-User-Key-File-\d{1,2}:/

/** Every base64 run of `text` that decodes to a private key, at the run's start. */
export function base64Hits(text: string): Hit[] {
  const hits: Hit[] = []
  let budget = MAX_DECODED
  for (const match of text.matchAll(RUN_RE)) {
    if (budget <= 0) break
    const run = match[0].slice(0, MAX_RUN - (MAX_RUN % 4))
    budget -= run.length
    const decoded = Buffer.from(run, 'base64').toString('latin1')
    const key = KEY_RE.exec(decoded)
    if (!key) continue
    const kind = key[0].startsWith('PuTTY') ? 'PuTTY' : key[0].slice(11, -5)
    hits.push({ offset: match.index, rule: 'private-key', message: `a base64-encoded private key (${kind})` })
  }
  return hits
}
