import { ASIDE_SELECTOR, cleanText, contentRoot, headings, isCoordinates, listText } from './lib/article.js'

const BLOCKS = 'p, ul, ol, dl, blockquote, pre'

/**
 * The prose of one section of the current article (subsections included, as `#` heading lines),
 * or of the lead when no heading is given, a part of about `maxChars` characters at a time
 * (`offset` is the first block, `next` the block where the part stopped). Tables, infoboxes,
 * figures and navigation boxes are left out.
 */
export default async function readSection(args) {
  const wanted = String(args?.heading ?? '').trim()
  const maxChars = Number.isInteger(args?.maxChars) ? Math.max(200, args.maxChars) : 3000
  const offset = Number.isInteger(args?.offset) ? Math.max(0, args.offset) : 0
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
  for (const node of nodes) {
    const h = headingSet.get(node)
    if (h) {
      if (!inside) { inside = h === target; continue }
      if (!target || h.level <= target.level) break
      blocks.push(`${'#'.repeat(h.level)} ${h.text}`)
      continue
    }
    if (!inside || /^H[2-6]$/.test(node.tagName)) continue
    // A block inside another is read with it (asked first: its nearest block is a step or two up).
    if (node.parentElement?.closest(BLOCKS)) continue
    if (node.closest(ASIDE_SELECTOR) || (node.matches('p') && isCoordinates(node))) continue
    const text = node.matches('ul, ol') ? listText(node) : cleanText(node)
    if (text) blocks.push(text)
  }

  // A part: whole blocks from `offset`, at least one, up to about maxChars characters; a heading
  // never ends a part.
  const taken = []
  let length = 0
  let index = offset
  for (; index < blocks.length; index++) {
    const afterHeading = /^#/.test(taken[taken.length - 1] ?? '')
    if (taken.length && !afterHeading && length + blocks[index].length > maxChars) break
    taken.push(blocks[index])
    length += blocks[index].length + 2
  }
  return {
    section: target ? { level: target.level, id: target.id, text: target.text } : null,
    text: taken.join('\n\n'),
    next: index < blocks.length ? index : null,
  }
}
