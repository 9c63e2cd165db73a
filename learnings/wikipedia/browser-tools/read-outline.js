import { articleTitle, cleanText, contentRoot, headings, isCoordinates, pageConfig } from './lib/article.js'

/**
 * The outline of the current Wikipedia article: title, short description, lead summary,
 * section headings with their anchor ids, and categories.
 */
export default async function readOutline(args) {
  const maxLevel = Number.isInteger(args?.maxLevel) ? Math.min(6, Math.max(2, args.maxLevel)) : 4
  const root = contentRoot()
  if (!root) return { error: 'no article content on this page (#mw-content-text not found)' }

  // The first real paragraph of the lead, i.e. before the first section heading (empty and
  // coordinate-only paragraphs are skipped).
  const sections = headings(root)
  const firstHeading = sections[0]?.element
  let lead = ''
  for (const p of root.querySelectorAll('p')) {
    if (firstHeading && firstHeading.compareDocumentPosition(p) & Node.DOCUMENT_POSITION_FOLLOWING) break
    if (p.closest('table, .infobox, .hatnote, .sidebar, figure') || isCoordinates(p)) continue
    const text = cleanText(p)
    if (text.length > 40) { lead = text; break }
  }

  const categories = [...document.querySelectorAll('#catlinks .mw-normal-catlinks li a')].map((a) => a.textContent.trim())
  // The section anchors are the `#id` parts of the page's URL; the page itself is the tab's.
  return {
    title: articleTitle(),
    revisionId: pageConfig('wgRevisionId'),
    shortDescription: cleanText(root.querySelector('.shortdescription')) || null,
    lead,
    sections: sections.filter((h) => h.level <= maxLevel).map(({ level, id, text }) => ({ level, id, text })),
    categories,
    hasInfobox: Boolean(root.querySelector('table.infobox')),
  }
}
