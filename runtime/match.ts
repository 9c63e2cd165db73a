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
  const exact: Record<string, number[]> = {}
  const wildcard: Record<string, number[]> = {}
  domainsBySkill.forEach((domains, index) => {
    for (const pattern of domains) {
      const [bucket, key] = pattern.startsWith('*.') ? [wildcard, pattern.slice(2)] : [exact, pattern]
      if (!Object.hasOwn(bucket, key)) bucket[key] = []
      const list = bucket[key]!
      if (!list.includes(index)) list.push(index)
    }
  })
  return { exact: sortKeys(exact), wildcard: sortKeys(wildcard) }
}

function sortKeys<T>(record: Record<string, T>): Record<string, T> {
  const out: Record<string, T> = {}
  for (const key of Object.keys(record).sort()) out[key] = record[key]!
  return out
}

export function createDomainTable(data: DomainTableData): DomainTable {
  return { exact: new Map(Object.entries(data.exact)), wildcard: new Map(Object.entries(data.wildcard)) }
}

/**
 * The host a URL is matched by: WHATWG parsing, `http:`/`https:` only (and `blob:` of those through
 * its inner origin), one trailing dot removed; undefined when nothing may match.
 */
export function urlHost(input: string | URL): string | undefined {
  let url: URL
  try {
    url = new URL(String(input))
    if (url.protocol === 'blob:') url = new URL(url.origin)
  } catch {
    return undefined
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return undefined
  const host = url.hostname.endsWith('.') ? url.hostname.slice(0, -1) : url.hostname
  if (host === '' || host.split('.').includes('')) return undefined
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
