/**
 * Wikipedia through its public HTTP APIs (no browser, no login).
 *
 * ctx used (all optional):
 * - ctx.fetch: a fetch implementation; defaults to the global fetch.
 * - ctx.userAgent: User-Agent to send. Wikimedia asks API clients to identify themselves
 *   (https://meta.wikimedia.org/wiki/User-Agent_policy); pass your agent's name and a contact URL.
 */

const DEFAULT_USER_AGENT = 'unplugin-site-skills-example/0.1 (site skill for Wikipedia; set ctx.userAgent to identify your agent)'
const LANG_RE = /^[a-z][a-z0-9]{1,11}(?:-[a-z0-9]{2,12}){0,2}$/

function languageHost(lang) {
  const code = String(lang ?? 'en').trim().toLowerCase()
  if (!LANG_RE.test(code)) throw new Error(`lang must be a Wikipedia language code such as "en", "de" or "zh-yue", got ${JSON.stringify(lang)}`)
  return `https://${code}.wikipedia.org`
}

/** Page titles use underscores for spaces in URLs; everything else is percent-encoded ("AC/DC" -> "AC%2FDC"). */
function titleSegment(title) {
  const text = String(title ?? '').trim().replace(/ /g, '_')
  if (!text) throw new Error('title is required')
  return encodeURIComponent(text)
}

/** A readable article URL: like titleSegment, but "/" and ":" stay as they are. */
function pageUrl(host, key) {
  return `${host}/wiki/${encodeURIComponent(String(key).replace(/ /g, '_')).replace(/%2F/g, '/').replace(/%3A/g, ':')}`
}

async function getJson(ctx, url) {
  const doFetch = ctx?.fetch ?? globalThis.fetch
  const response = await doFetch(url, {
    headers: { accept: 'application/json', 'user-agent': ctx?.userAgent ?? DEFAULT_USER_AGENT },
  })
  if (response.status === 404) return { notFound: true }
  if (!response.ok) throw new Error(`GET ${url} failed: HTTP ${response.status}`)
  return { body: await response.json() }
}

function boundedInteger(value, fallback, min, max, name) {
  if (value === undefined || value === null) return fallback
  const n = Number(value)
  if (!Number.isInteger(n)) throw new Error(`${name} must be an integer`)
  return Math.min(max, Math.max(min, n))
}

const stripTags = (html) => String(html ?? '').replace(/<[^>]*>/g, '').replace(/&quot;/g, '"').replace(/&#0?39;/g, "'").replace(/&amp;/g, '&').replace(/&lt;/g, '<').replace(/&gt;/g, '>')

/**
 * The summary of one article (REST API `page/summary`): description, plain-text lead extract,
 * thumbnail, canonical URL. Redirects are followed. A missing page gives `{ found: false }`.
 */
export async function getSummary(ctx, args = {}) {
  const host = languageHost(args.lang)
  const url = `${host}/api/rest_v1/page/summary/${titleSegment(args.title)}`
  const { body, notFound } = await getJson(ctx, url)
  if (notFound) return { found: false, title: String(args.title), lang: host.slice(8, host.indexOf('.')) }
  return {
    found: true,
    type: body.type,
    title: body.titles?.normalized ?? body.title,
    displayTitle: stripTags(body.displaytitle ?? body.title),
    description: body.description ?? null,
    extract: body.extract ?? '',
    url: body.content_urls?.desktop?.page ?? pageUrl(host, body.title),
    lang: body.lang ?? null,
    pageId: body.pageid ?? null,
    revision: body.revision ?? null,
    timestamp: body.timestamp ?? null,
    thumbnail: body.thumbnail ? { source: body.thumbnail.source, width: body.thumbnail.width, height: body.thumbnail.height } : null,
    coordinates: body.coordinates ? { lat: body.coordinates.lat, lon: body.coordinates.lon } : null,
  }
}

/**
 * Search articles (core REST API): `title` mode completes titles from a prefix (fast, like the
 * search box suggestions); `fulltext` searches article text and returns a snippet.
 */
export async function searchArticles(ctx, args = {}) {
  const host = languageHost(args.lang)
  const query = String(args.query ?? '').trim()
  if (!query) throw new Error('query is required')
  const mode = args.mode ?? 'fulltext'
  if (mode !== 'title' && mode !== 'fulltext') throw new Error('mode must be "title" or "fulltext"')
  const limit = boundedInteger(args.limit, 10, 1, 50, 'limit')
  const endpoint = mode === 'title' ? 'search/title' : 'search/page'
  const url = `${host}/w/rest.php/v1/${endpoint}?q=${encodeURIComponent(query)}&limit=${limit}`
  const { body, notFound } = await getJson(ctx, url)
  if (notFound) return []
  return (body.pages ?? []).map((page) => ({
    title: page.title,
    key: page.key,
    url: pageUrl(host, page.key),
    description: page.description ?? null,
    excerpt: page.excerpt ? stripTags(page.excerpt) : null,
    pageId: page.id,
  }))
}
