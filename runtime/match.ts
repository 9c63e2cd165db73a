/**
 * Domain lookup: which skills apply to a URL's host. A table maps exact hosts and wildcard bases to skill indexes;
 * a lookup costs one probe per label of the host, whatever the number of skills.
 */

/** Serializable form: pattern -> indexes of the skills (in directory order) that claim it. */
export interface DomainTableData {
  exact: Record<string, number[]>
  wildcard: Record<string, number[]>
}

export interface DomainTable {
  exact: Map<string, number[]>
  wildcard: Map<string, number[]>
}

/** Builds the serializable table from each skill's normalized patterns, in skill order. */
export function createDomainTableData(domainsBySkill: readonly (readonly string[])[]): DomainTableData {
  // Maps, not objects: a host such as `__proto__` or `constructor` is a key like any other.
  const exact = new Map<string, number[]>()
  const wildcard = new Map<string, number[]>()
  domainsBySkill.forEach((domains, index) => {
    for (const pattern of domains) {
      const [bucket, key] = pattern.startsWith('*.') ? [wildcard, pattern.slice(2)] : [exact, pattern]
      const list = bucket.get(key) ?? []
      if (list.length === 0) bucket.set(key, list)
      if (!list.includes(index)) list.push(index)
    }
  })
  return { exact: sortKeys(exact), wildcard: sortKeys(wildcard) }
}

/**
 * The same record (or map) as a record with its keys in code-unit order: generated data must not
 * depend on insertion order. `fromEntries` defines own properties: a key such as `__proto__` stays data.
 */
export function sortKeys<T>(record: Record<string, T> | ReadonlyMap<string, T>): Record<string, T> {
  const entries = record instanceof Map ? [...record] : Object.entries(record)
  return Object.fromEntries(entries.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
}

export function createDomainTable(data: DomainTableData): DomainTable {
  return { exact: new Map(Object.entries(data.exact)), wildcard: new Map(Object.entries(data.wildcard)) }
}

/**
 * A plain `http(s)://host[:port]` prefix whose host is ASCII letters, digits, hyphens and dots, and
 * whose last label starts with a letter: WHATWG parsing would only lowercase such a host (no IPv4
 * forms, no IDNA, no percent-decoding), so it is read without building a URL object.
 */
const PLAIN_URL = /^https?:\/\/((?:[A-Za-z0-9-]*\.)*[A-Za-z][A-Za-z0-9-]*\.?)(?::(\d{1,5}))?(?:[/?#]|$)/

function plainHost(input: string): string | undefined {
  const match = PLAIN_URL.exec(input)
  if (!match || (match[2] !== undefined && Number(match[2]) > 65535)) return undefined
  const host = match[1]!
  // Labels starting "xn--" are punycode, which the parser checks; leave those to it.
  return /xn--/i.test(host) ? undefined : host.toLowerCase()
}

/** WHATWG parsing, for every URL the plain form does not cover. */
function parsedHost(input: string): string | undefined {
  let url: URL
  try {
    url = new URL(input)
    if (url.protocol === 'blob:') url = new URL(url.origin)
  } catch {
    return undefined
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return undefined
  return url.hostname
}

/**
 * The host a URL is matched by: WHATWG parsing, `http:`/`https:` only (and `blob:` of those through
 * its inner origin), one trailing dot removed; undefined when nothing may match.
 */
export function urlHost(input: string | URL): string | undefined {
  const text = String(input)
  const raw = plainHost(text) ?? parsedHost(text)
  if (!raw) return undefined
  const host = raw.endsWith('.') ? raw.slice(0, -1) : raw
  if (host === '' || host.startsWith('.') || host.endsWith('.') || host.includes('..')) return undefined
  return host
}

/** Indexes of the skills whose patterns match `host`, ascending (directory order). */
export function lookupHost(table: DomainTable, host: string): number[] {
  const found = table.exact.get(host)?.slice() ?? []
  if (!host.startsWith('[')) {
    for (let dot = host.indexOf('.'); dot >= 0; dot = host.indexOf('.', dot + 1)) {
      const hits = table.wildcard.get(host.slice(dot + 1))
      if (hits) for (const index of hits) if (!found.includes(index)) found.push(index)
    }
  }
  return found.length > 1 ? found.sort((a, b) => a - b) : found
}

/** Whether a URL matches one skill's patterns (for checking a page before running a tool). */
export function urlMatchesDomains(url: string, patterns: readonly string[]): boolean {
  const host = urlHost(url)
  if (!host) return false
  return patterns.some((p) => (p.startsWith('*.') ? !host.startsWith('[') && host.endsWith(p.slice(1)) : host === p))
}
