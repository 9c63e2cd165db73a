async function (args) {
  // Repository metadata from an open github.com repository page (any tab: code, issues, a file).
  // Reads the octolytics <meta> tags (GitHub has kept them for years; older pages put the value in
  // `value=` instead of `content=`), the About data the React overview embeds as JSON (2026), then
  // the About box and the counters of the current layout, then those of the 2019 layout. A bare
  // function expression: no imports, DOM only.
  const meta = (name) => {
    const node = document.querySelector(`meta[name="${name}"], meta[property="${name}"]`)
    return node ? node.getAttribute('content') ?? node.getAttribute('value') : null
  }
  const clean = (text) => (text || '').replace(/\s+/g, ' ').trim()
  const nwo = meta('octolytics-dimension-repository_nwo')
  // First path segments that are GitHub's own pages, never an owner.
  const RESERVED = ['about', 'account', 'apps', 'codespaces', 'collections', 'dashboard', 'enterprise', 'explore',
    'features', 'issues', 'login', 'marketplace', 'new', 'notifications', 'orgs', 'organizations', 'pricing',
    'pulls', 'search', 'settings', 'signup', 'sponsors', 'topics', 'trending', 'users']
  const pathMatch = /^\/([^/]+)\/([^/]+)/.exec(location.pathname)
  if (!nwo && (!pathMatch || RESERVED.includes(pathMatch[1].toLowerCase()))) return { error: 'not a repository page' }
  const fullName = nwo || `${pathMatch[1]}/${pathMatch[2]}`
  // Links are relative on current pages and absolute on older ones.
  const link = (suffix, inner = '') =>
    [`/${fullName}/${suffix}`, `https://github.com/${fullName}/${suffix}`].map((href) => `a[href="${href}"] ${inner}`).join(', ')

  // The React repository overview (2026) draws the About box from the JSON the page embeds for
  // the app (`script[data-target="react-app.embeddedData"]`, `payload.sidebarAbout`); the JSON is
  // there even where the box itself is only drawn in the browser.
  const findAbout = (value, depth) => {
    if (!value || typeof value !== 'object' || depth > 3) return null
    const about = value.sidebarAbout
    if (about && typeof about === 'object' && `${about.ownerLogin}/${about.repoName}`.toLowerCase() === fullName.toLowerCase())
      return about
    for (const key of ['payload', 'props', 'initialPayload']) {
      const found = findAbout(value[key], depth + 1)
      if (found) return found
    }
    return null
  }
  let about = null
  for (const node of document.querySelectorAll('script[type="application/json"][data-target$=".embeddedData"]')) {
    try { about = findAbout(JSON.parse(node.textContent), 0) } catch { about = null }
    if (about) break
  }
  // The About box in the page: "About" heading then its paragraph (p.f4 until 2026, a
  // SidebarAbout-module paragraph in the React overview), or [itemprop=about] (2019).
  const aboutHeading = [...document.querySelectorAll('h2')].find((h) => clean(h.textContent) === 'About')
  const aboutNode = (aboutHeading && aboutHeading.parentElement.querySelector('p.f4, p[class*="SidebarAbout-module__description"]')) ||
    document.querySelector('[itemprop="about"]')
  // og:description is "About text - owner/repo" (2026) or "About text - owner/repo: About text..."
  // (2022) on repository pages; on issue and pull request pages it is the post's body, so it is only
  // used when it carries the repository suffix. A repository without About text has a generic sentence.
  const og = meta('og:description') || ''
  const suffix = og.lastIndexOf(` - ${fullName}`)
  const ogAbout = suffix > 0 && !/^Contribute to .+ development by creating an account on GitHub/.test(og)
    ? clean(og.slice(0, suffix).replace(/&amp;/g, '&'))
    : null
  const description = about
    ? clean(about.description) || null
    : (aboutNode && clean(aboutNode.textContent)) || ogAbout || null

  // Counters: the exact number is in the title attribute ("12,345"), the text is abbreviated ("12.3k").
  const toNumber = (raw) => {
    const match = /([\d.,]+)\s*([kKmM]?)/.exec(raw || '')
    if (!match) return null
    const base = Number(match[1].replace(/,/g, ''))
    const factor = { k: 1e3, K: 1e3, m: 1e6, M: 1e6 }[match[2]] || 1
    return Number.isFinite(base) ? Math.round(base * factor) : null
  }
  const counter = (selectors) => {
    for (const selector of selectors) {
      const node = document.querySelector(selector)
      if (!node) continue
      const value = toNumber(node.getAttribute('title') || node.getAttribute('aria-label') || node.textContent)
      if (value !== null) return value
    }
    return null
  }
  // Watchers: the sidebar's "24 watching" (with or without a /watchers link).
  const watching = () => {
    for (const node of document.querySelectorAll('a, span, div')) {
      if (node.children.length > 2) continue
      const match = /^([\d.,]+[kKmM]?) watching$/.exec(clean(node.textContent))
      if (match) return toNumber(match[1])
    }
    return null
  }

  const pageTopics = [...document.querySelectorAll('a.topic-tag, a[href^="/topics/"]')].map((a) => clean(a.textContent))
  const aboutTopics = about && Array.isArray(about.topics) ? about.topics.map((t) => clean(t && t.name)) : []
  const topics = [...new Set((pageTopics.length ? pageTopics : aboutTopics).filter(Boolean))]
  const aboutCount = (key) => (about && Number.isInteger(about[key]) ? about[key] : null)

  // The language bar links to the repository search with an l= parameter (not on every page).
  const languages = []
  for (const a of document.querySelectorAll(`a[href*="/${fullName}/search?l="]`)) {
    const parts = [...a.querySelectorAll('span')].map((s) => clean(s.textContent)).filter(Boolean)
    const percent = parts.find((p) => /%$/.test(p))
    const label = parts.find((p) => !/%$/.test(p))
    if (label) languages.push({ name: label, percent: percent ? Number.parseFloat(percent) : null })
  }

  // Where we are inside the repository: /tree/<ref>/<path>, /blob/<ref>/<path>, /issues, /pulls...
  const rest = pathMatch ? location.pathname.split('/').slice(3).filter(Boolean) : []
  const section = rest[0] || 'code'

  // One line per language ("Zig 59.5%") and per topic; the repository's address is its full name.
  return {
    repo: fullName,
    description,
    // The repository it was forked from, or null.
    parent: meta('octolytics-dimension-repository_parent_nwo'),
    stars: counter(['#repo-stars-counter-star', link('stargazers', 'strong'), `a.social-count[href$="/${fullName}/stargazers"]`]) ?? aboutCount('stargazerCount'),
    // Before 2019 the fork count linked to /network, and the tab counters were `.counter`.
    forks: counter(['#repo-network-counter', link('forks', 'strong'), `a.social-count[href$="/${fullName}/network/members"]`,
      `a.social-count[href$="/${fullName}/network"]`]) ?? aboutCount('forksCount'),
    watchers: counter([link('watchers', 'strong'), `a.social-count[href$="/${fullName}/watchers"]`]) ?? watching() ?? aboutCount('watcherCount'),
    issues: counter(['#issues-repo-tab-count', link('issues', '.Counter'), link('issues', '.counter')]),
    pulls: counter(['#pull-requests-repo-tab-count', link('pulls', '.Counter'), link('pulls', '.counter')]),
    topics,
    languages: languages.map((l) => (l.percent === null ? l.name : `${l.name} ${l.percent}%`)),
    // Where the page is inside the repository: a folder (tree) or file (blob) at a ref.
    ...(section === 'tree' || section === 'blob' ? { ref: rest[1] || null, path: rest.slice(2).join('/') } : {}),
  }
}
