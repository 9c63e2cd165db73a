async function (args) {
  // Reads the story list of a Hacker News listing page (front page, /newest, /ask, /show,
  // /front, /best, /from?site=...). Each story is a `tr.athing` row followed by a subtext row.
  // One compact row per story: the item id stands for its discussion page, and the link only with
  // `urls` (the site says where it goes). A bare function expression: no imports, DOM only.
  const limit = Number.isInteger(args && args.limit) ? Math.max(1, args.limit) : 30
  const withUrls = Boolean(args && args.urls)
  const rows = [...document.querySelectorAll('tr.athing')].filter((row) => !row.classList.contains('comtr'))
  if (rows.length === 0) return { error: 'no story rows (tr.athing) on this page' }

  const toInt = (text) => {
    const match = /\d[\d,]*/.exec(text || '')
    return match ? Number(match[0].replace(/,/g, '')) : null
  }
  const text = (node) => (node ? node.textContent.replace(/\s+/g, ' ').trim() : null)
  const stories = []
  for (const row of rows.slice(0, limit)) {
    const link = row.querySelector('.titleline > a') || row.querySelector('td.title > a')
    if (!link) continue
    const sub = row.nextElementSibling && row.nextElementSibling.querySelector('td.subtext')
    const score = sub && sub.querySelector('.score')
    // The comments link is the last item link of the subtext ("12 comments" or "discuss").
    const itemLinks = sub ? [...sub.querySelectorAll('a[href^="item?id="]')] : []
    const commentsText = itemLinks.length ? text(itemLinks[itemLinks.length - 1]) : ''
    const id = Number(row.id) || null
    const story = {
      rank: toInt(text(row.querySelector('.rank'))),
      id,
      title: text(link),
      site: text(row.querySelector('.sitestr')),
      // Job ads have neither points nor an author.
      points: score ? toInt(score.textContent) : null,
      user: text(sub && sub.querySelector('a.hnuser')),
      age: text(sub && sub.querySelector('.age')),
      comments: /comment/.test(commentsText) ? toInt(commentsText) : commentsText === 'discuss' ? 0 : null,
    }
    // Ask HN, text posts and jobs without a link point to their own item page: no link to add.
    if (withUrls) story.url = link.host === location.host && link.pathname === '/item' ? null : link.href
    stories.push(story)
  }

  const more = document.querySelector('a.morelink')
  return {
    page: location.pathname.replace(/^\//, '') || 'news',
    stories,
    more: more ? more.getAttribute('href') : null,
  }
}
