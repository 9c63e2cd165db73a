/**
 * GitHub's REST API (https://docs.github.com/rest), read-only calls.
 *
 * ctx used (all optional):
 * - ctx.fetch: a fetch implementation; defaults to the global fetch.
 * - ctx.githubToken: a token to send as a Bearer token. Without it, GitHub allows 60 requests an
 *   hour per IP address and only public repositories are visible. The token comes from whoever
 *   runs the agent; never write one into a skill.
 * - ctx.userAgent: User-Agent to send (GitHub rejects requests without one).
 */

const API = 'https://api.github.com'
const NAME_RE = /^[A-Za-z0-9_.-]{1,100}$/

async function request(ctx, path) {
  const doFetch = ctx?.fetch ?? globalThis.fetch
  const headers = {
    accept: 'application/vnd.github+json',
    'x-github-api-version': '2022-11-28',
    'user-agent': ctx?.userAgent ?? 'unplugin-site-skills-example',
  }
  if (ctx?.githubToken) headers.authorization = `Bearer ${ctx.githubToken}`
  const response = await doFetch(`${API}${path}`, { headers })
  if (response.status === 404) return { notFound: true }
  if ((response.status === 403 || response.status === 429) && response.headers.get('x-ratelimit-remaining') === '0') {
    const reset = Number(response.headers.get('x-ratelimit-reset'))
    const when = Number.isFinite(reset) && reset > 0 ? new Date(reset * 1000).toISOString() : 'later'
    throw new Error(`GitHub API rate limit exhausted; it resets at ${when}. Pass ctx.githubToken for a higher limit.`)
  }
  if (!response.ok) throw new Error(`GET ${API}${path} failed: HTTP ${response.status}`)
  return { body: await response.json() }
}

/** Accepts { owner, repo } or { repo: "owner/name" } or a github.com URL in `repo`. */
function repoPath(args) {
  let owner = args.owner
  let repo = String(args.repo ?? '').trim()
  const fromUrl = /^(?:https?:\/\/)?(?:www\.)?github\.com\/([^/\s]+)\/([^/\s#?]+)/.exec(repo)
  if (fromUrl) [, owner, repo] = fromUrl
  else if (!owner && repo.includes('/')) [owner, repo] = repo.split('/')
  repo = repo?.replace(/\.git$/, '')
  if (!NAME_RE.test(owner ?? '') || !NAME_RE.test(repo ?? '')) {
    throw new Error('give owner and repo (e.g. owner: "vitejs", repo: "vite"), or repo as "owner/name"')
  }
  return `${encodeURIComponent(owner)}/${encodeURIComponent(repo)}`
}

function boundedInteger(value, fallback, min, max, name) {
  if (value === undefined || value === null) return fallback
  const n = Number(value)
  if (!Number.isInteger(n)) throw new Error(`${name} must be an integer`)
  return Math.min(max, Math.max(min, n))
}

function summarizeRepo(r) {
  return {
    fullName: r.full_name,
    description: r.description,
    url: r.html_url,
    homepage: r.homepage || null,
    stars: r.stargazers_count,
    forks: r.forks_count,
    watchers: r.subscribers_count ?? null,
    openIssues: r.open_issues_count,
    language: r.language,
    topics: r.topics ?? [],
    license: r.license?.spdx_id && r.license.spdx_id !== 'NOASSERTION' ? r.license.spdx_id : r.license?.name ?? null,
    defaultBranch: r.default_branch,
    isFork: r.fork,
    parent: r.parent?.full_name ?? null,
    archived: r.archived ?? false, // absent from responses of before 2017, when repositories could not be archived
    visibility: r.visibility ?? (r.private ? 'private' : 'public'),
    createdAt: r.created_at,
    pushedAt: r.pushed_at,
  }
}

/** Metadata of one repository. `{ found: false }` when it does not exist or is not visible. */
export async function getRepository(ctx, args = {}) {
  const path = repoPath(args)
  const { body, notFound } = await request(ctx, `/repos/${path}`)
  if (notFound) return { found: false, fullName: decodeURIComponent(path) }
  return { found: true, ...summarizeRepo(body) }
}

const SORTS = ['best-match', 'stars', 'forks', 'updated']

/** Repository search with GitHub's search syntax (language:, topic:, stars:>100, user:...). */
export async function searchRepositories(ctx, args = {}) {
  const words = String(args.query ?? '').trim()
  if (!words) throw new Error('query is required')
  const sort = args.sort ?? 'best-match'
  if (!SORTS.includes(sort)) throw new Error(`sort must be one of ${SORTS.join(', ')}`)
  const limit = boundedInteger(args.limit, 10, 1, 100, 'limit')
  const q = [words, args.language ? `language:${JSON.stringify(String(args.language))}` : ''].filter(Boolean).join(' ')
  const params = new URLSearchParams({ q, per_page: String(limit) })
  if (sort !== 'best-match') params.set('sort', sort)
  const { body } = await request(ctx, `/search/repositories?${params}`)
  return {
    total: body?.total_count ?? 0,
    incomplete: Boolean(body?.incomplete_results),
    items: (body?.items ?? []).map(summarizeRepo),
  }
}

const STATES = ['open', 'closed', 'all']

/** Issues of a repository, newest first. Pull requests are left out (the API mixes them in). */
export async function listIssues(ctx, args = {}) {
  const path = repoPath(args)
  const state = args.state ?? 'open'
  if (!STATES.includes(state)) throw new Error(`state must be one of ${STATES.join(', ')}`)
  const limit = boundedInteger(args.limit, 20, 1, 100, 'limit')
  const params = new URLSearchParams({ state, per_page: String(Math.min(100, limit * 2)), sort: 'created', direction: 'desc' })
  if (Array.isArray(args.labels) && args.labels.length) params.set('labels', args.labels.map(String).join(','))
  const { body, notFound } = await request(ctx, `/repos/${path}/issues?${params}`)
  if (notFound) throw new Error(`repository ${decodeURIComponent(path)} not found or not visible`)
  return body
    .filter((issue) => !issue.pull_request)
    .slice(0, limit)
    .map((issue) => ({
      number: issue.number,
      title: issue.title,
      state: issue.state,
      url: issue.html_url,
      author: issue.user?.login ?? null,
      labels: (issue.labels ?? []).map((label) => (typeof label === 'string' ? label : label.name)),
      comments: issue.comments,
      createdAt: issue.created_at,
      updatedAt: issue.updated_at,
    }))
}
