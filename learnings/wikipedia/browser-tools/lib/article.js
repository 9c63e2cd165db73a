// Page-side helpers for Wikipedia article pages (desktop and mobile skins). Bundled into the
// tools that import them; DOM only.

/** Elements whose text is never article prose: footnote markers, edit links, hidden metadata. */
export const NOISE_SELECTOR = [
  'sup.reference',
  '.mw-editsection',
  '.mw-cite-backlink',
  'style',
  'script',
  '.noprint',
  '.mw-empty-elt',
  '.shortdescription',
].join(',')

/** Blocks that surround prose but are not part of it. */
export const ASIDE_SELECTOR = [
  'table',
  'figure',
  '.thumb',
  '.infobox',
  '.navbox',
  '.sidebar',
  '.hatnote',
  '.ambox',
  '.metadata',
  '.reflist',
  '.mw-references-wrap',
  '.toc',
  '#toc',
  '.gallery',
  '.side-box',
].join(',')

/** The article body: `.mw-parser-output` inside `#mw-content-text`, or null off an article. */
export function contentRoot() {
  return document.querySelector('#mw-content-text .mw-parser-output') || document.querySelector('#mw-content-text')
}

/**
 * The text of a node without the elements `skip` matches (and their contents), whitespace collapsed.
 * One pass over the nodes, without copying them (a copy of a subtree nested thousands deep takes
 * seconds) and without recursion.
 */
function textWithout(node, skip) {
  const walker = document.createTreeWalker(node, NodeFilter.SHOW_ELEMENT | NodeFilter.SHOW_TEXT, {
    acceptNode: (n) => {
      if (n.nodeType === Node.TEXT_NODE) return NodeFilter.FILTER_ACCEPT
      return n.matches(skip) ? NodeFilter.FILTER_REJECT : NodeFilter.FILTER_SKIP
    },
  })
  let text = ''
  while (walker.nextNode()) text += walker.currentNode.data
  return text.replace(/\s+/g, ' ').trim()
}

/** Text of a node without footnote markers and edit links, whitespace collapsed. */
export function cleanText(node) {
  return node ? textWithout(node, NOISE_SELECTOR) : ''
}

/**
 * Whether a paragraph only holds the article's coordinates ("Coordinates: 42°S 174°E"), which
 * place articles put before the lead.
 */
export function isCoordinates(p) {
  return Boolean(p.querySelector('#coordinates, .geo-inline, .geo-default, .geo')) && /^Coordinates\b/i.test(cleanText(p))
}

/** Lists nested deeper than this are read as one line of text (no deep recursion on a hostile page). */
const MAX_DEPTH = 40

/** A list as indented "- item" lines; nested lists are indented below their item. */
export function listText(list, depth = 0) {
  if (depth > MAX_DEPTH) {
    const text = cleanText(list)
    return text ? `${'  '.repeat(depth)}- ${text}` : ''
  }
  const lines = []
  for (const li of list.children) {
    if (li.tagName !== 'LI') continue
    // The item's own text: without its nested lists, which follow as lines of their own.
    const text = textWithout(li, `${NOISE_SELECTOR},ul,ol`)
    if (text) lines.push(`${'  '.repeat(depth)}- ${text}`)
    for (const nested of li.querySelectorAll(':scope > ul, :scope > ol')) {
      const inner = listText(nested, depth + 1)
      if (inner) lines.push(inner)
    }
  }
  return lines.join('\n')
}

/**
 * Section headings of the article body, in document order. Handles the current markup
 * (`div.mw-heading > h2[id]`), the older one (`h2 > span.mw-headline[id]`) and Parsoid's
 * nested `<section>` wrappers.
 */
export function headings(root = contentRoot()) {
  if (!root) return []
  const found = []
  for (const h of root.querySelectorAll('h2, h3, h4, h5, h6')) {
    if (h.closest('.toc, #toc, .navbox, .infobox, .sidebar, .mw-references-wrap')) continue
    const headline = h.querySelector('.mw-headline')
    const id = h.id || headline?.id || ''
    const text = cleanText(headline || h)
    if (!text) continue
    found.push({ level: Number(h.tagName.slice(1)), id, text, element: h })
  }
  return found
}

/** The page's title as shown (`#firstHeading`), without markup. */
export function articleTitle() {
  return cleanText(document.querySelector('#firstHeading .mw-page-title-main') || document.querySelector('#firstHeading') || document.querySelector('h1'))
}

/** A value from MediaWiki's page config (`mw.config`), or null when not available. */
export function pageConfig(key) {
  try {
    const value = window.mw?.config?.get(key)
    return value === undefined ? null : value
  } catch {
    return null
  }
}
