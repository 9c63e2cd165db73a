import { ASIDE_SELECTOR, articleTitle, cleanText, contentRoot, headings, isCoordinates, listText } from './lib/article.js'

const BLOCKS = 'p, ul, ol, dl, blockquote, pre'

/**
 * The prose of one section of the current article (subsections included), or of the lead when
 * no heading is given. Tables, infoboxes, figures and navigation boxes are left out.
 */
export default async function readSection(args) {
  const wanted = String(args?.heading ?? '').trim()
  const maxChars = Number.isInteger(args?.maxChars) ? Math.max(200, args.maxChars) : 8000
  const root = contentRoot()
  if (!root) return { error: 'no article content on this page (#mw-content-text not found)' }

  const all = headings(root)
  let target = null
  if (wanted) {
    const norm = (s) => s.replace(/_/g, ' ').toLowerCase().trim()
    target = all.find((h) => h.id === wanted) ||
      all.find((h) => norm(h.id) === norm(wanted)) ||
      all.find((h) => norm(h.text) === norm(wanted))
    if (!target) return { error: `no section "${wanted}"`, available: all.map((h) => h.text) }
  }

  // Walk headings and prose blocks in document order: start after the target heading (or at the
  // top for the lead), stop at the next heading of the same or a higher level.
  const headingSet = new Map(all.map((h) => [h.element, h]))
  const nodes = root.querySelectorAll(`h2, h3, h4, h5, h6, ${BLOCKS}`)
  const blocks = []
  let inside = !target
  let length = 0
  let truncated = false
  for (const node of nodes) {
    const h = headingSet.get(node)
    if (h) {
      if (!inside) { inside = h === target; continue }
      if (!target || h.level <= target.level) break
      blocks.push(`${'#'.repeat(h.level)} ${h.text}`)
      continue
    }
    if (!inside || /^H[2-6]$/.test(node.tagName)) continue
    if (node.closest(ASIDE_SELECTOR) || (node.matches('p') && isCoordinates(node))) continue
    if (node.parentElement?.closest(BLOCKS)) continue
    const text = node.matches('ul, ol') ? listText(node) : cleanText(node)
    if (!text) continue
    if (length + text.length > maxChars) {
      blocks.push(text.slice(0, Math.max(0, maxChars - length)).trimEnd() + ' …')
      truncated = true
      break
    }
    blocks.push(text)
    length += text.length
  }

  return {
    title: articleTitle(),
    section: target ? { level: target.level, id: target.id, text: target.text } : null,
    blocks,
    text: blocks.join('\n\n'),
    truncated,
  }
}
