/**
 * Search Hacker News through the Algolia-powered HN Search API (https://hn.algolia.com/api),
 * the same index as the search box at the bottom of news.ycombinator.com. No key needed.
 *
 * ctx used (optional): ctx.fetch, a fetch implementation; defaults to the global fetch.
 */
import { htmlToText } from './lib/text.js'

const API = 'https://hn.algolia.com/api/v1'
const TAGS = { story: 'story', comment: 'comment', ask_hn: 'ask_hn', show_hn: 'show_hn', job: 'job', poll: 'poll' }
const RANGES = { day: 86400, week: 7 * 86400, month: 30 * 86400, year: 365 * 86400 }

export async function searchStories(ctx, args = {}) {
  const query = String(args.query ?? '').trim()
  if (!query) throw new Error('query is required')
  const type = args.type ?? 'story'
  if (!(type in TAGS)) throw new Error(`type must be one of ${Object.keys(TAGS).join(', ')}`)
  const sort = args.sort ?? 'relevance'
  if (sort !== 'relevance' && sort !== 'date') throw new Error('sort must be "relevance" or "date"')
  const limit = args.limit == null ? 10 : Number(args.limit)
  if (!Number.isInteger(limit)) throw new Error('limit must be an integer')

  const params = new URLSearchParams({ query, tags: TAGS[type], hitsPerPage: String(Math.min(50, Math.max(1, limit))) })
  const filters = []
  if (args.minPoints != null) {
    if (!Number.isInteger(args.minPoints)) throw new Error('minPoints must be an integer')
    filters.push(`points>=${args.minPoints}`)
  }
  if (args.within != null) {
    if (!(args.within in RANGES)) throw new Error(`within must be one of ${Object.keys(RANGES).join(', ')}`)
    filters.push(`created_at_i>=${Math.floor(Date.now() / 1000) - RANGES[args.within]}`)
  }
  if (filters.length) params.set('numericFilters', filters.join(','))

  const url = `${API}/${sort === 'date' ? 'search_by_date' : 'search'}?${params}`
  const doFetch = ctx?.fetch ?? globalThis.fetch
  const response = await doFetch(url, { headers: { accept: 'application/json' } })
  if (!response.ok) throw new Error(`GET ${url} failed: HTTP ${response.status}`)
  const body = await response.json()

  return (body.hits ?? []).map((hit) => ({
    id: Number(hit.objectID),
    type,
    // Comment hits carry "" (older records) or null in title and url: the story's are used then.
    title: hit.title || hit.story_title || null,
    url: hit.url || hit.story_url || `https://news.ycombinator.com/item?id=${hit.story_id ?? hit.objectID}`,
    score: hit.points ?? null,
    by: hit.author ?? null,
    time: hit.created_at ?? null,
    comments: hit.num_comments ?? null,
    commentsUrl: `https://news.ycombinator.com/item?id=${hit.story_id ?? hit.objectID}`,
    text: htmlToText(hit.comment_text ?? hit.story_text),
  }))
}
