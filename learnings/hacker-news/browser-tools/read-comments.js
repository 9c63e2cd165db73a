async function (args) {
  // Reads the story and its comment tree on a Hacker News item page (/item?id=...). Comments are
  // flat `tr.athing.comtr` rows; the nesting depth is the `indent` attribute of `td.ind`.
  // A bare function expression: no imports, DOM only.
  const maxComments = Number.isInteger(args && args.maxComments) ? Math.max(1, args.maxComments) : 100
  const maxDepth = Number.isInteger(args && args.maxDepth) ? Math.max(0, args.maxDepth) : Infinity
  const fat = document.querySelector('table.fatitem')
  if (!fat) return { error: 'not an item page (no table.fatitem); open /item?id=<id>' }

  const text = (node) => (node ? node.innerText.replace(/\u00a0/g, ' ').trim() : '')
  const toInt = (value) => {
    const match = /\d[\d,]*/.exec(value || '')
    return match ? Number(match[0].replace(/,/g, '')) : null
  }

  // The item itself: a story (title row + subtext) or a single comment opened on its own.
  const head = fat.querySelector('tr.athing')
  // `.titleline > a` since late 2022; before, the link sat in `td.title` itself (`a.storylink`
  // until 2021, `a.titlelink` in 2022).
  const title = fat.querySelector('.titleline > a') || fat.querySelector('td.title > a')
  const sub = fat.querySelector('td.subtext')
  const storyText = fat.querySelector('div.toptext')
  const item = {
    id: head ? Number(head.id) || null : null,
    title: title ? title.textContent.replace(/\s+/g, ' ').trim() : null,
    url: title ? title.href : null,
    score: sub && sub.querySelector('.score') ? toInt(sub.querySelector('.score').textContent) : null,
    by: fat.querySelector('a.hnuser') ? fat.querySelector('a.hnuser').textContent.trim() : null,
    time: fat.querySelector('.age[title]') ? fat.querySelector('.age[title]').getAttribute('title').split(' ')[0] : null,
    // Link posts have no text: no div.toptext, or an empty one.
    text: text(storyText) || null,
  }
  // Comment text without the "reply" link that older pages nest inside the comment body.
  const bodyText = (body) => {
    const full = text(body)
    const reply = body.querySelector('.reply')
    const tail = reply ? text(reply) : ''
    return tail && full.endsWith(tail) ? full.slice(0, -tail.length).trim() : full
  }

  const rows = [...document.querySelectorAll('tr.athing.comtr')]
  const comments = []
  const parents = []
  for (const row of rows) {
    const ind = row.querySelector('td.ind')
    const depth = ind && ind.hasAttribute('indent') ? Number(ind.getAttribute('indent')) : 0
    parents.length = depth
    const id = Number(row.id) || null
    const parentId = depth === 0 ? item.id : parents[depth - 1] ?? null
    parents[depth] = id
    if (depth > maxDepth) continue
    const body = row.querySelector('.commtext')
    const user = row.querySelector('a.hnuser')
    const age = row.querySelector('.age')
    comments.push({
      id,
      parentId,
      depth,
      by: user ? user.textContent.trim() : null,
      time: age && age.getAttribute('title') ? age.getAttribute('title').split(' ')[0] : null,
      // Deleted and flagged comments have no .commtext; the row shows "[deleted]" or "[flagged]".
      text: body ? bodyText(body) : text(row.querySelector('.comment')) || null,
      // `coll` marks the head of a collapsed thread (shown as "[3 more]"); the replies under it
      // carry `noshow` (hidden) and are not collapsed themselves.
      collapsed: row.classList.contains('coll'),
      hidden: row.classList.contains('noshow'),
    })
    if (comments.length >= maxComments) break
  }

  const more = document.querySelector('a.morelink')
  return { item, totalOnPage: rows.length, count: comments.length, comments, moreUrl: more ? more.href : null }
}
