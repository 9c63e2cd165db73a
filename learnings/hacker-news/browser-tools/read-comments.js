async function (args) {
  // Reads the item and its comment threads on a Hacker News item page (/item?id=...), a page of
  // comments at a time. Comments are flat `tr.athing.comtr` rows in thread order; the nesting depth
  // is the `indent` attribute of `td.ind`. A bare function expression: no imports, DOM only.
  const int = (value, fallback, min) => (Number.isInteger(value) ? Math.max(min, value) : fallback)
  const limit = int(args && args.limit, 40, 1)
  const offset = int(args && args.offset, 0, 0)
  const maxDepth = int(args && args.depth, Infinity, 0)
  const thread = int(args && args.thread, null, 1)
  const fat = document.querySelector('table.fatitem')
  if (!fat) return { error: 'not an item page (no table.fatitem); open /item?id=<id>' }

  const text = (node) => (node ? node.innerText.replace(/\u00a0/g, ' ').replace(/\n{3,}/g, '\n\n').trim() : '')
  const oneLine = (node) => (node ? node.textContent.replace(/\s+/g, ' ').trim() : null)
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
  // Ask HN and text posts link to their own page (item?id=..., made absolute on some saved pages).
  const ownPage = (link) => link.host === location.host && link.pathname === '/item'
  const item = {
    id: head ? Number(head.id) || null : null,
    title: oneLine(title),
    url: title && !ownPage(title) ? title.href : null,
    points: sub && sub.querySelector('.score') ? toInt(sub.querySelector('.score').textContent) : null,
    user: oneLine(fat.querySelector('a.hnuser')),
    age: oneLine(fat.querySelector('.age')),
    // Link posts have no text: no div.toptext, or an empty one.
    text: text(fat.querySelector('div.toptext')) || null,
  }
  // Comment text without the "reply" link that older pages nest inside the comment body.
  const bodyText = (body) => {
    const full = text(body)
    const tail = text(body.querySelector('.reply'))
    return tail && full.endsWith(tail) ? full.slice(0, -tail.length).trim() : full
  }

  // The comments in scope: all of the page's, or one comment and the replies under it.
  const rows = [...document.querySelectorAll('tr.athing.comtr')]
  const depthOf = (row) => {
    const ind = row.querySelector('td.ind')
    return ind && ind.hasAttribute('indent') ? Number(ind.getAttribute('indent')) : 0
  }
  let scope = rows.map((row) => ({ row, depth: depthOf(row) }))
  if (thread !== null) {
    const start = scope.findIndex((c) => Number(c.row.id) === thread)
    if (start < 0) return { error: `no comment ${thread} on this page` }
    let end = start + 1
    while (end < scope.length && scope[end].depth > scope[start].depth) end++
    scope = scope.slice(start, end)
  }
  scope = scope.filter((c) => c.depth <= maxDepth)

  // A page: up to `limit` comments, ending early after about 10,000 characters of text (a page of
  // long comments stays within a model's result budget); `next` is where the following page starts.
  const comments = []
  let chars = 0
  for (let i = offset; i < scope.length && comments.length < limit && chars < 10000; i++) {
    const { row, depth } = scope[i]
    const body = row.querySelector('.commtext')
    // Deleted and flagged comments have no .commtext; the row shows "[deleted]" or "[flagged]".
    const said = body ? bodyText(body) : text(row.querySelector('.comment')) || null
    chars += said ? said.length : 0
    comments.push({ id: Number(row.id) || null, depth, user: oneLine(row.querySelector('a.hnuser')), text: said })
  }
  const next = offset + comments.length < scope.length ? offset + comments.length : null
  const more = document.querySelector('a.morelink')
  return {
    // The item once, on the first page of its comments.
    ...(offset === 0 && thread === null ? { item } : {}),
    total: scope.length,
    offset,
    comments,
    next,
    more: more ? more.getAttribute('href') : null,
  }
}
