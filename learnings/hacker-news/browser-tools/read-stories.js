async function (args) {
  // Reads the story list of a Hacker News listing page (front page, /newest, /ask, /show,
  // /front, /best, /from?site=...). Each story is a `tr.athing` row followed by a subtext row.
  // A bare function expression: no imports, DOM only.
  const limit = Number.isInteger(args && args.limit) ? Math.max(1, args.limit) : 30
  const rows = [...document.querySelectorAll('tr.athing')].filter((row) => !row.classList.contains('comtr'))
  if (rows.length === 0) return { error: 'no story rows (tr.athing) on this page' }

  const toInt = (text) => {
    const match = /\d[\d,]*/.exec(text || '')
    return match ? Number(match[0].replace(/,/g, '')) : null
  }
  const stories = []
  for (const row of rows.slice(0, limit)) {
    const link = row.querySelector('.titleline > a') || row.querySelector('td.title > a')
    if (!link) continue
    const sub = row.nextElementSibling && row.nextElementSibling.querySelector('td.subtext')
    const score = sub && sub.querySelector('.score')
    const user = sub && sub.querySelector('a.hnuser')
    const age = sub && sub.querySelector('.age')
    // The comments link is the last item link of the subtext ("12 comments" or "discuss").
    const itemLinks = sub ? [...sub.querySelectorAll('a[href^="item?id="]')] : []
    const commentsLink = itemLinks.length ? itemLinks[itemLinks.length - 1] : null
    const commentsText = commentsLink ? commentsLink.textContent.replace(/\u00a0/g, ' ').trim() : ''
    const site = row.querySelector('.sitestr')
    const rank = row.querySelector('.rank')
    // Titles of Ask HN / Show HN / jobs without a link point to the item itself (relative href).
    const id = Number(row.id) || null
    const itemUrl = id ? new URL(`item?id=${id}`, location.href).href : null
    stories.push({
      id,
      rank: rank ? toInt(rank.textContent) : null,
      title: link.textContent.replace(/\s+/g, ' ').trim(),
      url: link.href,
      site: site ? site.textContent.trim() : null,
      score: score ? toInt(score.textContent) : null,
      by: user ? user.textContent.trim() : null,
      time: age && age.getAttribute('title') ? age.getAttribute('title').split(' ')[0] : null,
      age: age ? age.textContent.trim() : null,
      comments: /comment/.test(commentsText) ? toInt(commentsText) : commentsText === 'discuss' ? 0 : null,
      commentsUrl: itemUrl,
      // Job ads have neither points nor an author.
      type: !score && !user ? 'job' : 'story',
    })
  }

  const more = document.querySelector('a.morelink')
  return {
    page: location.pathname.replace(/^\//, '') || 'news',
    count: stories.length,
    stories,
    moreUrl: more ? more.href : null,
  }
}
