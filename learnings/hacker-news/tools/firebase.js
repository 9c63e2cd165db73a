/**
 * Hacker News through its official read-only API (https://github.com/HackerNews/API), served by
 * Firebase at https://hacker-news.firebaseio.com/v0. No key, no login.
 *
 * ctx used (optional): ctx.fetch, a fetch implementation; defaults to the global fetch.
 */
import { htmlToText } from './lib/text.js'

const API = 'https://hacker-news.firebaseio.com/v0'
const LISTS = { top: 'topstories', new: 'newstories', best: 'beststories', ask: 'askstories', show: 'showstories', job: 'jobstories' }

async function getJson(ctx, path) {
  const doFetch = ctx?.fetch ?? globalThis.fetch
  const response = await doFetch(`${API}/${path}`, { headers: { accept: 'application/json' } })
  if (!response.ok) throw new Error(`GET ${API}/${path} failed: HTTP ${response.status}`)
  return response.json()
}

function boundedInteger(value, fallback, min, max, name) {
  if (value === undefined || value === null) return fallback
  const n = Number(value)
  if (!Number.isInteger(n)) throw new Error(`${name} must be an integer`)
  return Math.min(max, Math.max(min, n))
}

/** Maps over items with at most `width` requests in flight, keeping order. */
async function mapLimited(values, width, fn) {
  const results = new Array(values.length)
  let next = 0
  const workers = Array.from({ length: Math.min(width, values.length) }, async () => {
    while (next < values.length) {
      const index = next++
      results[index] = await fn(values[index], index)
    }
  })
  await Promise.all(workers)
  return results
}

/** Comment and story text comes as HTML; this gives readable plain text. */

function itemUrl(id) {
  return `https://news.ycombinator.com/item?id=${id}`
}

function toStory(item, rank) {
  return {
    id: item.id,
    rank,
    type: item.type,
    title: item.title ?? null,
    // Jobs without a link carry url: "" (text posts have none): the item page then.
    url: item.url || itemUrl(item.id),
    score: item.score ?? null,
    by: item.by ?? null,
    time: item.time ? new Date(item.time * 1000).toISOString() : null,
    comments: item.descendants ?? (item.type === 'job' ? null : 0),
    commentsUrl: itemUrl(item.id),
    text: htmlToText(item.text),
  }
}

/** The current stories of one HN list, in list order (the order of the site's pages). */
export async function getStories(ctx, args = {}) {
  const list = args.list ?? 'top'
  if (!(list in LISTS)) throw new Error(`list must be one of ${Object.keys(LISTS).join(', ')}`)
  const limit = boundedInteger(args.limit, 10, 1, 100, 'limit')
  const ids = await getJson(ctx, `${LISTS[list]}.json`)
  const items = await mapLimited(ids.slice(0, limit), 8, (id) => getJson(ctx, `item/${id}.json`))
  return items
    .map((item, index) => (item && !item.deleted && !item.dead ? toStory(item, index + 1) : null))
    .filter(Boolean)
}

/**
 * One item (story, comment, job or poll) with its direct replies, and their replies down to
 * `depth` levels. Deleted and dead comments are skipped.
 */
export async function getItem(ctx, args = {}) {
  const id = Number(args.id)
  if (!Number.isInteger(id) || id <= 0) throw new Error('id must be a positive integer (the number in item?id=...)')
  const depth = boundedInteger(args.depth, 1, 0, 5, 'depth')
  const maxComments = boundedInteger(args.maxComments, 30, 0, 300, 'maxComments')
  const root = await getJson(ctx, `item/${id}.json`)
  if (!root) return { found: false, id }

  let budget = maxComments
  async function replies(item, level) {
    if (level > depth || !item.kids?.length || budget <= 0) return []
    const kids = item.kids.slice(0, budget)
    const fetched = await mapLimited(kids, 8, (kid) => getJson(ctx, `item/${kid}.json`))
    const out = []
    for (const kid of fetched) {
      if (!kid || kid.deleted || kid.dead || budget <= 0) continue
      budget--
      out.push({
        id: kid.id,
        by: kid.by ?? null,
        time: kid.time ? new Date(kid.time * 1000).toISOString() : null,
        text: htmlToText(kid.text),
        replyCount: kid.kids?.length ?? 0,
        replies: [],
        _item: kid,
      })
    }
    for (const comment of out) {
      comment.replies = await replies(comment._item, level + 1)
      delete comment._item
    }
    return out
  }

  return {
    found: true,
    ...toStory(root, null),
    parent: root.parent ?? null,
    replies: await replies(root, 1),
  }
}
