/**
 * MDN Web Docs data without a browser: the site search API and the browser-compat-data (BCD)
 * endpoint that MDN's own compatibility tables load from.
 *
 * ctx used (optional): ctx.fetch, a fetch implementation; defaults to the global fetch.
 */

const SITE = 'https://developer.mozilla.org'
const BCD = 'https://bcd.developer.mozilla.org/bcd/api/v0/current'
const LOCALES = ['en-US', 'de', 'es', 'fr', 'ja', 'ko', 'pt-BR', 'ru', 'zh-CN', 'zh-TW']
const QUERY_RE = /^[a-z]+(?:\.[\w\-:@$]+)+$/i

async function getJson(ctx, url) {
  const doFetch = ctx?.fetch ?? globalThis.fetch
  const response = await doFetch(url, { headers: { accept: 'application/json' } })
  if (response.status === 404) return { notFound: true }
  if (!response.ok) throw new Error(`GET ${url} failed: HTTP ${response.status}`)
  return { body: await response.json() }
}

const stripTags = (html) => String(html ?? '').replace(/<[^>]*>/g, '').replace(/\s+/g, ' ').trim()

/** Full-text search over MDN documents (the API behind /<locale>/search?q=...). */
export async function searchDocs(ctx, args = {}) {
  const query = String(args.query ?? '').trim()
  if (!query) throw new Error('query is required')
  const locale = args.locale ?? 'en-US'
  if (!LOCALES.includes(locale)) throw new Error(`locale must be one of ${LOCALES.join(', ')}`)
  const limit = args.limit == null ? 10 : Number(args.limit)
  if (!Number.isInteger(limit) || limit < 1) throw new Error('limit must be a positive integer')

  const params = new URLSearchParams({ q: query, locale })
  const { body, notFound } = await getJson(ctx, `${SITE}/api/v1/search?${params}`)
  if (notFound) return { total: 0, results: [] }
  return {
    total: body.metadata?.total?.value ?? null,
    results: (body.documents ?? []).slice(0, limit).map((doc) => ({
      title: doc.title,
      url: `${SITE}${doc.mdn_url}`,
      path: doc.mdn_url,
      locale: doc.locale,
      summary: doc.summary ?? stripTags(doc.highlight?.body?.[0]),
    })),
  }
}

/** The current support statement of one browser, flattened (BCD lists the most relevant first). */
function describeSupport(statement) {
  const list = Array.isArray(statement) ? statement : statement ? [statement] : []
  const current = list.find((s) => !s.flags && !s.prefix && !s.alternative_name) ?? list[0]
  if (!current) return { support: 'unknown', added: null, removed: null, partial: false, prefix: null, altName: null, flagged: false, notes: [] }
  const added = current.version_added
  const removed = typeof current.version_removed === 'string' ? current.version_removed : null
  let support
  if (added === false) support = 'no'
  else if (added === null || added === undefined) support = 'unknown'
  else if (added === 'preview') support = 'preview'
  else if (removed || current.flags) support = 'no'
  else support = current.partial_implementation ? 'partial' : 'yes'
  const notes = current.notes === undefined ? [] : (Array.isArray(current.notes) ? current.notes : [current.notes]).map(stripTags)
  return {
    support,
    added: typeof added === 'string' ? added : added === true ? 'yes' : null,
    removed,
    partial: Boolean(current.partial_implementation),
    prefix: current.prefix ?? null,
    altName: current.alternative_name ?? null,
    flagged: Boolean(current.flags),
    notes,
  }
}

function describeFeature(key, node, wanted) {
  const compat = node.__compat ?? {}
  const support = {}
  for (const [browser, statement] of Object.entries(compat.support ?? {})) {
    if (!wanted || wanted.includes(browser)) support[browser] = describeSupport(statement)
  }
  return {
    key,
    description: compat.description ? stripTags(compat.description) : null,
    mdnUrl: compat.mdn_url ?? null,
    specUrl: Array.isArray(compat.spec_url) ? compat.spec_url : compat.spec_url ? [compat.spec_url] : [],
    status: compat.status
      ? { experimental: Boolean(compat.status.experimental), standardTrack: Boolean(compat.status.standard_track), deprecated: Boolean(compat.status.deprecated) }
      : null,
    support,
  }
}

/**
 * Browser support for one BCD feature key (e.g. "api.fetch", "css.properties.display",
 * "javascript.builtins.Array.at") and, optionally, its direct sub-features.
 */
export async function getCompatData(ctx, args = {}) {
  const query = String(args.query ?? '').trim()
  if (!QUERY_RE.test(query)) throw new Error('query must be a BCD key such as "api.fetch" or "css.properties.display"')
  const wanted = Array.isArray(args.browsers) && args.browsers.length ? args.browsers.map(String) : null
  const { body, notFound } = await getJson(ctx, `${BCD}/${query}.json`)
  if (notFound) return { found: false, query }
  const data = body.data ?? body
  const feature = describeFeature(query, data, wanted)
  const subfeatures = args.includeSubfeatures
    ? Object.entries(data)
        .filter(([key, node]) => key !== '__compat' && node && typeof node === 'object' && node.__compat)
        .map(([key, node]) => describeFeature(`${query}.${key}`, node, wanted))
    : []
  const browsers = {}
  for (const [id, info] of Object.entries(body.browsers ?? {})) {
    if (!wanted || wanted.includes(id)) browsers[id] = info?.name ?? id
  }
  return { found: true, query, ...feature, subfeatures, browsers }
}
