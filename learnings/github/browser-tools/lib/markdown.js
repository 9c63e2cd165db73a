/**
 * Rendered GitHub Markdown (`.markdown-body`) back to compact markdown: `#` headings, paragraphs,
 * `-` and `1.` lists (nested by indentation), fenced code, `>` quotes, tables as `a | b` rows.
 * Emphasis, images and badges are left out; links keep their text, and their address with `links`.
 * The blocks are paged: `offset` is the first block, `next` the block where `maxChars` stopped.
 */

const BLOCK = /^(ADDRESS|ARTICLE|ASIDE|BLOCKQUOTE|DETAILS|DIV|DL|FIGURE|H[1-6]|HR|OL|P|PRE|SECTION|SUMMARY|TABLE|UL)$/
const SKIP = 'script, style, template, svg, img, picture, video, .anchor, .octicon, clipboard-copy, .zeroclipboard-container'

/** Elements nested deeper than this are read as plain text (no deep recursion on a hostile page). */
const MAX_DEPTH = 40

const squash = (text) => text.replace(/[ \t\r\n\u00a0]+/g, ' ')

/** The text of inline content: code in backticks, links as text (or `[text](url)`), breaks as new lines. */
function inline(node, links, depth = 0) {
  if (depth > MAX_DEPTH) return squash(node.textContent)
  let out = ''
  for (const child of node.childNodes) {
    if (child.nodeType === Node.TEXT_NODE) out += squash(child.textContent)
    else if (child.nodeType !== Node.ELEMENT_NODE || child.matches(SKIP)) continue
    else if (child.tagName === 'BR') out += '\n'
    else if (child.tagName === 'CODE') out += `\`${child.textContent}\``
    else if (child.tagName === 'A' && links && child.getAttribute('href') && !child.getAttribute('href').startsWith('#')) {
      const text = inline(child, false, depth + 1).trim()
      out += text && text !== child.href ? `[${text}](${child.href})` : child.href
    } else out += inline(child, links, depth + 1)
  }
  return out
}

const line = (text) => text.split('\n').map((part) => part.replace(/ {2,}/g, ' ').trim()).filter(Boolean).join('\n')

function list(node, depth, links) {
  if (depth > MAX_DEPTH) return line(squash(node.textContent))
  const lines = []
  let n = Number(node.getAttribute('start')) || 1
  for (const item of node.children) {
    if (item.tagName !== 'LI') continue
    const own = item.cloneNode(true)
    for (const nested of own.querySelectorAll(':scope > ul, :scope > ol, :scope > pre')) nested.remove()
    const marker = node.tagName === 'OL' ? `${n++}.` : '-'
    const text = line(inline(own, links)).replace(/\n/g, ' ')
    if (text) lines.push(`${'  '.repeat(depth)}${marker} ${text}`)
    for (const nested of item.querySelectorAll(':scope > ul, :scope > ol')) lines.push(list(nested, depth + 1, links))
  }
  return lines.filter(Boolean).join('\n')
}

function code(pre) {
  const holder = pre.closest('.highlight, [data-snippet-clipboard-copy-content]') || pre
  const match = /(?:highlight-source|language)-([\w+#-]+)/.exec(`${holder.className} ${pre.className}`)
  return `\`\`\`${match ? match[1] : ''}\n${pre.textContent.replace(/\n+$/, '')}\n\`\`\``
}

function table(node, links) {
  return [...node.rows].map((row) => [...row.cells].map((cell) => line(inline(cell, links)).replace(/\n/g, ' ')).join(' | ')).join('\n')
}

/** The markdown blocks of `root`, in order. */
function blocks(root, links, quote = '', depth = 0) {
  if (depth > MAX_DEPTH) return [line(root.textContent.replace(/[ \t\r\n\u00a0]+/g, ' '))].filter(Boolean)
  const out = []
  let text = ''
  const flush = () => {
    const done = line(text)
    if (done) out.push(quote + done.replace(/\n/g, `\n${quote}`))
    text = ''
  }
  for (const child of root.childNodes) {
    if (child.nodeType === Node.TEXT_NODE) { text += squash(child.textContent); continue }
    if (child.nodeType !== Node.ELEMENT_NODE || child.matches(SKIP)) continue
    if (!BLOCK.test(child.tagName)) { text += inline({ childNodes: [child] }, links); continue }
    flush()
    const tag = child.tagName
    if (/^H[1-6]$/.test(tag)) out.push(`${quote}${'#'.repeat(Number(tag[1]))} ${line(inline(child, links)).replace(/\n/g, ' ')}`)
    else if (tag === 'UL' || tag === 'OL') out.push(quote + list(child, 0, links).replace(/\n/g, `\n${quote}`))
    else if (tag === 'PRE') out.push(code(child))
    else if (tag === 'TABLE') out.push(table(child, links))
    else if (tag === 'BLOCKQUOTE') out.push(...blocks(child, links, `${quote}> `, depth + 1))
    else if (tag === 'HR') continue
    else if (tag === 'P') { text = inline(child, links); flush() }
    else out.push(...blocks(child, links, quote, depth + 1))
  }
  flush()
  return out.filter((block) => block.trim())
}

/** At most this many headings in an outline: the deepest levels go first, then the last ones. */
const MAX_OUTLINE = 24

/** The headings of `rest` (blocks from `from` on) as `{ offset, heading }`, the shallowest levels when there are many. */
function outlineOf(all, from) {
  const headings = []
  for (let index = from; index < all.length; index++) {
    const match = /^(#{1,6}) \S/.exec(all[index])
    if (match) headings.push({ offset: index, heading: all[index], level: match[1].length })
  }
  let deepest = Math.max(0, ...headings.map((h) => h.level))
  let kept = headings
  while (kept.length > MAX_OUTLINE && kept.some((h) => h.level < deepest)) {
    kept = kept.filter((h) => h.level < deepest)
    deepest -= 1
  }
  return kept.slice(0, MAX_OUTLINE).map(({ offset, heading }) => ({ offset, heading }))
}

/** Blocks from `offset` up to about `maxChars` characters: their text and the first block left. */
function part(all, offset, maxChars) {
  const taken = []
  let length = 0
  let index = offset
  for (; index < all.length; index++) {
    const block = all[index]
    if (taken.length && length + block.length > maxChars) break
    taken.push(block)
    length += block.length + 2
  }
  return { text: taken.join('\n\n'), next: index < all.length ? index : null }
}

/**
 * `root` as compact markdown from block `offset`, up to about `maxChars` characters. A document
 * longer than `maxChars` read from its start opens with a part of `lead` characters (when given) and
 * the outline of the rest: its headings with the offset each starts at.
 */
export function toMarkdown(root, { offset = 0, maxChars = 3000, lead, links = false } = {}) {
  const all = blocks(root, links).map((block) => block.replace(/[\u200b\ufeff]/g, '')).filter((block) => block.trim())
  const whole = all.reduce((n, block) => n + block.length + 2, 0)
  const size = offset === 0 && lead && whole > maxChars ? Math.min(lead, maxChars) : maxChars
  const { text, next } = part(all, offset, size)
  return offset === 0 && next !== null ? { text, next, outline: outlineOf(all, next) } : { text, next }
}
