async function (args) {
  // Repository metadata from an open github.com repository page (any tab: code, issues, a file).
  // Prefers the page's <meta> tags, which GitHub has kept stable for years, over layout markup.
  // A bare function expression: no imports, DOM only.
  const meta = (name) => {
    const node = document.querySelector(`meta[name="${name}"], meta[property="${name}"]`)
    return node ? node.getAttribute('content') : null
  }
  const nwo = meta('octolytics-dimension-repository_nwo')
  // First path segments that are GitHub's own pages, never an owner.
  const RESERVED = ['about', 'account', 'apps', 'codespaces', 'collections', 'dashboard', 'enterprise', 'explore',
    'features', 'issues', 'login', 'marketplace', 'new', 'notifications', 'orgs', 'organizations', 'pricing',
    'pulls', 'search', 'settings', 'signup', 'sponsors', 'topics', 'trending', 'users']
  const pathMatch = /^\/([^/]+)\/([^/]+)/.exec(location.pathname)
  if (!nwo && (!pathMatch || RESERVED.includes(pathMatch[1].toLowerCase()))) return { error: 'not a repository page' }
  const fullName = nwo || `${pathMatch[1]}/${pathMatch[2]}`
  const [owner, name] = fullName.split('/')

  // og:description is the repository description, or a generic sentence when there is none.
  const og = meta('og:description')
  const description = og && !/^Contribute to .+ development by creating an account on GitHub\.?$/.test(og) ? og : null

  // Counters: the exact number is in the title attribute ("12,345"), the text is abbreviated ("12.3k").
  const counter = (selectors) => {
    for (const selector of selectors) {
      const node = document.querySelector(selector)
      if (!node) continue
      const raw = node.getAttribute('title') || node.getAttribute('aria-label') || node.textContent
      const match = /([\d.,]+)\s*([kKmM]?)/.exec(raw || '')
      if (!match) continue
      const base = Number(match[1].replace(/,/g, ''))
      const factor = { k: 1e3, K: 1e3, m: 1e6, M: 1e6 }[match[2]] || 1
      if (Number.isFinite(base)) return Math.round(base * factor)
    }
    return null
  }

  const topics = [...new Set([...document.querySelectorAll('a.topic-tag, a[href^="/topics/"]')]
    .map((a) => a.textContent.trim())
    .filter(Boolean))]

  // The language bar links to the repository search with an l= parameter.
  const languages = []
  for (const a of document.querySelectorAll(`a[href^="/${fullName}/search?l="]`)) {
    const parts = [...a.querySelectorAll('span')].map((s) => s.textContent.trim()).filter(Boolean)
    const percent = parts.find((p) => /%$/.test(p))
    const label = parts.find((p) => !/%$/.test(p))
    if (label) languages.push({ name: label, percent: percent ? Number.parseFloat(percent) : null })
  }

  // Where we are inside the repository: /tree/<ref>/<path>, /blob/<ref>/<path>, /issues, /pulls...
  const rest = pathMatch ? location.pathname.split('/').slice(3).filter(Boolean) : []
  const section = rest[0] || 'code'

  const boolMeta = (key) => {
    const value = meta(key)
    return value === null ? null : value === 'true'
  }
  return {
    fullName,
    owner,
    name,
    url: `https://github.com/${fullName}`,
    repositoryId: meta('octolytics-dimension-repository_id') ? Number(meta('octolytics-dimension-repository_id')) : null,
    description,
    isPublic: boolMeta('octolytics-dimension-repository_public'),
    isFork: boolMeta('octolytics-dimension-repository_is_fork'),
    parent: meta('octolytics-dimension-repository_parent_nwo'),
    stars: counter(['#repo-stars-counter-star', `a[href="/${fullName}/stargazers"] strong`]),
    forks: counter(['#repo-network-counter', `a[href="/${fullName}/forks"] strong`]),
    watchers: counter([`a[href="/${fullName}/watchers"] strong`]),
    openIssues: counter(['#issues-repo-tab-count']),
    openPullRequests: counter(['#pull-requests-repo-tab-count']),
    topics,
    languages,
    section,
    path: section === 'tree' || section === 'blob' ? rest.slice(2).join('/') || '' : null,
    ref: section === 'tree' || section === 'blob' ? rest[1] || null : null,
  }
}
