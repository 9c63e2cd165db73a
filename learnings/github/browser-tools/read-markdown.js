async function (args) {
  // Reads rendered Markdown on GitHub: the README on a repository's front page, a .md file
  // view, or a wiki page. Rendered Markdown is always `article.markdown-body`, in the page or in
  // the React overview's embedded JSON.
  // A bare function expression: no imports, DOM only.
  const maxChars = Number.isInteger(args && args.maxChars) ? Math.max(200, args.maxChars) : 8000
  // The React repository overview (2024 on) may leave the README to the browser (`data-ssr="false"`):
  // until its script has run, the README's HTML is only in the JSON the page embeds for the app
  // (`overviewFiles[].richText`). It is read from there into an inert document.
  const findFiles = (value, depth) => {
    if (!value || typeof value !== 'object' || depth > 4) return null
    if (Array.isArray(value.overviewFiles)) return value.overviewFiles
    for (const inner of Object.values(value)) {
      const found = findFiles(inner, depth + 1)
      if (found) return found
    }
    return null
  }
  const embeddedReadme = () => {
    for (const node of document.querySelectorAll('script[type="application/json"][data-target$=".embeddedData"]')) {
      let files = null
      try { files = findFiles(JSON.parse(node.textContent), 0) } catch { files = null }
      const file = files && (files.find((f) => f && f.richText && f.preferredFileType === 'readme') || files.find((f) => f && f.richText))
      if (!file) continue
      const doc = new DOMParser().parseFromString(file.richText, 'text/html')
      return doc.querySelector('article.markdown-body') || doc.body
    }
    return null
  }
  const article = document.querySelector('#readme article.markdown-body') ||
    document.querySelector('article.markdown-body') ||
    document.querySelector('.markdown-body') ||
    embeddedReadme()
  if (!article) return { error: 'no rendered markdown (article.markdown-body) on this page' }

  const clean = (node) => node.textContent.replace(/\s+/g, ' ').trim()
  // Heading anchors: `a.anchor` next to or inside the heading (its href is "#slug"), or the heading id.
  const anchorOf = (h) => {
    const wrapper = h.closest('.markdown-heading')
    const anchor = (wrapper && wrapper.querySelector('a.anchor')) || h.querySelector('a.anchor')
    const href = anchor && anchor.getAttribute('href')
    if (href && href.startsWith('#')) return href.slice(1)
    return h.id ? h.id.replace(/^user-content-/, '') : null
  }
  const base = location.href.split('#')[0]
  const headings = [...article.querySelectorAll('h1, h2, h3, h4, h5, h6')].map((h) => {
    const anchor = anchorOf(h)
    return { level: Number(h.tagName.slice(1)), text: clean(h), anchor, url: anchor ? `${base}#${anchor}` : null }
  })

  // A list as indented "- item" lines (numbered for ol); nested lists below their item.
  const listText = (list, depth) => {
    const lines = []
    let n = Number(list.getAttribute('start')) || 1
    for (const li of list.children) {
      if (li.tagName !== 'LI') continue
      const own = li.cloneNode(true)
      for (const nested of own.querySelectorAll('ul, ol, pre')) nested.remove()
      const marker = list.tagName === 'OL' ? `${n++}.` : '-'
      const text = clean(own)
      if (text) lines.push(`${'  '.repeat(depth)}${marker} ${text}`)
      for (const nested of li.querySelectorAll(':scope > ul, :scope > ol')) lines.push(listText(nested, depth + 1))
    }
    return lines.filter(Boolean).join('\n')
  }
  const blocks = []
  let length = 0
  let truncated = false
  for (const node of article.querySelectorAll('h1, h2, h3, h4, h5, h6, p, ul, ol, pre, table')) {
    // Lists, code blocks and tables are rendered as a whole by their outermost element.
    const container = node.parentElement && node.parentElement.closest('ul, ol, pre, table')
    if (container && article.contains(container)) continue
    let text
    if (/^H[1-6]$/.test(node.tagName)) text = `${'#'.repeat(Number(node.tagName.slice(1)))} ${clean(node)}`
    else if (node.matches('pre')) text = '```\n' + node.textContent.replace(/\n+$/, '') + '\n```'
    else if (node.matches('ul, ol')) text = listText(node, 0)
    else if (node.matches('table')) text = [...node.rows].map((row) => [...row.cells].map(clean).join(' | ')).join('\n')
    else text = (node.closest('blockquote') ? '> ' : '') + clean(node)
    if (!text || text === '> ') continue
    if (length + text.length > maxChars) { truncated = true; break }
    blocks.push(text)
    length += text.length
  }

  const links = [...article.querySelectorAll('a[href]')]
    .filter((a) => !a.classList.contains('anchor') && !a.getAttribute('href').startsWith('#'))
    .slice(0, 100)
    .map((a) => ({ text: clean(a) || (a.querySelector('img') ? a.querySelector('img').alt : ''), url: a.href }))

  return {
    url: base,
    headings,
    text: blocks.join('\n\n'),
    truncated,
    codeBlocks: article.querySelectorAll('pre').length,
    images: article.querySelectorAll('img').length,
    links,
  }
}
