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

/** Text of a node without footnote markers and edit links, whitespace collapsed. */
export function cleanText(node) {
  if (!node) return ''
  const copy = node.cloneNode(true)
  for (const noise of copy.querySelectorAll(NOISE_SELECTOR)) noise.remove()
  return copy.textContent.replace(/\s+/g, ' ').trim()
}

/**
 * Whether a paragraph only holds the article's coordinates ("Coordinates: 42°S 174°E"), which
 * place articles put before the lead.
 */
export function isCoordinates(p) {
  return Boolean(p.querySelector('#coordinates, .geo-inline, .geo-default, .geo')) && /^Coordinates\b/i.test(cleanText(p))
}

/** A list as indented "- item" lines; nested lists are indented below their item. */
export function listText(list, depth = 0) {
  const lines = []
  for (const li of list.children) {
    if (li.tagName !== 'LI') continue
    const own = li.cloneNode(true)
    for (const nested of own.querySelectorAll('ul, ol')) nested.remove()
    const text = cleanText(own)
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
