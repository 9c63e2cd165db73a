/**
 * An MDN article's rendered HTML back to compact markdown: `#` headings, paragraphs, `-` and `1.`
 * lists, definition lists as `- term: definition`, fenced code with its language (`brush: css`),
 * notes as `> Note: ...`, tables as `a | b` rows. Interactive examples, live-sample frames, the
 * compatibility tables (scripted web components) and images are left out; links keep their text.
 */

const BLOCK = /^(ARTICLE|ASIDE|BLOCKQUOTE|DD|DETAILS|DIV|DL|DT|FIGURE|H[1-6]|HR|OL|P|PRE|SECTION|SUMMARY|TABLE|UL)$/
const SKIP = [
  'script', 'style', 'template', 'svg', 'img', 'picture', 'video', 'iframe', 'button',
  'aside', 'nav', 'footer', '.article-footer', 'interactive-example', '.example-header', '.sample-code-frame',
  '.bc-data', '[query]', '.baseline-indicator', 'mdn-survey', 'mdn-placement-sidebar',
].join(', ')

/** Elements nested deeper than this are read as plain text (no deep recursion on a hostile page). */
const MAX_DEPTH = 40

const squash = (text) => text.replace(/[ \t\r\n\u00a0]+/g, ' ')
const line = (text) => text.split('\n').map((part) => part.replace(/ {2,}/g, ' ').trim()).filter(Boolean).join('\n')
const oneLine = (text) => line(text).replace(/\n/g, ' ')

function inline(node, depth = 0) {
  if (depth > MAX_DEPTH) return squash(node.textContent)
  let out = ''
  for (const child of node.childNodes) {
    if (child.nodeType === Node.TEXT_NODE) out += squash(child.textContent)
    else if (child.nodeType !== Node.ELEMENT_NODE || child.matches(SKIP)) continue
    else if (child.tagName === 'BR') out += '\n'
    else if (child.tagName === 'CODE' && !child.closest('pre')) out += `\`${child.textContent}\``
    else out += inline(child, depth + 1)
  }
  return out
}

function list(node, depth) {
  if (depth > MAX_DEPTH) return oneLine(node.textContent)
  const lines = []
  let n = Number(node.getAttribute('start')) || 1
  for (const item of node.children) {
    if (item.tagName !== 'LI') continue
    const own = item.cloneNode(true)
    for (const nested of own.querySelectorAll(':scope > ul, :scope > ol, :scope > pre')) nested.remove()
    const text = oneLine(inline(own))
    if (text) lines.push(`${'  '.repeat(depth)}${node.tagName === 'OL' ? `${n++}.` : '-'} ${text}`)
    for (const nested of item.querySelectorAll(':scope > ul, :scope > ol')) lines.push(list(nested, depth + 1))
  }
  return lines.filter(Boolean).join('\n')
}

/** A definition list: `- term: definition`, a definition's further paragraphs indented under it. */
function definitions(node, depth) {
  const lines = []
  for (const child of node.children) {
    if (child.tagName === 'DT') lines.push(`- ${oneLine(inline(child))}`)
    else if (child.tagName === 'DD') {
      const parts = blocks(child, '', depth + 1)
      if (!parts.length) continue
      const [first, ...rest] = parts
      if (lines.length && !first.includes('\n')) lines[lines.length - 1] += `: ${first}`
      else lines.push(`  ${first.replace(/\n/g, '\n  ')}`)
      for (const part of rest) lines.push(`  ${part.replace(/\n/g, '\n  ')}`)
    }
  }
  return lines.join('\n')
}

function code(pre) {
  const match = /brush:\s*([\w+#-]+)/.exec(pre.className) || /language-([\w+#-]+)/.exec(pre.className)
  return `\`\`\`${match ? match[1] : ''}\n${pre.textContent.replace(/\n+$/, '')}\n\`\`\``
}

const table = (node) =>
  [...node.rows].map((row) => [...row.cells].map((cell) => oneLine(inline(cell))).join(' | ')).join('\n')

/** The markdown blocks of `root`, in order. */
export function blocks(root, quote = '', depth = 0) {
  if (depth > MAX_DEPTH) return [oneLine(root.textContent)].filter(Boolean)
  const out = []
  let text = ''
  const push = (block) => block && out.push(quote + block.replace(/\n/g, `\n${quote}`))
  const flush = () => {
    push(line(text))
    text = ''
  }
  for (const child of root.childNodes) {
    if (child.nodeType === Node.TEXT_NODE) { text += squash(child.textContent); continue }
    if (child.nodeType !== Node.ELEMENT_NODE || child.matches(SKIP)) continue
    if (!BLOCK.test(child.tagName)) { text += inline({ childNodes: [child] }); continue }
    flush()
    const tag = child.tagName
    if (/^H[1-6]$/.test(tag)) push(`${'#'.repeat(Number(tag[1]))} ${oneLine(inline(child))}`)
    else if (tag === 'UL' || tag === 'OL') push(list(child, 0))
    else if (tag === 'DL') push(definitions(child, depth))
    else if (tag === 'PRE') push(code(child))
    else if (tag === 'TABLE') push(table(child))
    else if (tag === 'BLOCKQUOTE' || child.matches('.notecard')) out.push(...blocks(child, `${quote}> `, depth + 1))
    else if (tag === 'P') { text = inline(child); flush() }
    else if (tag !== 'HR') out.push(...blocks(child, quote, depth + 1))
  }
  flush()
  return out.filter((block) => block.trim())
}
