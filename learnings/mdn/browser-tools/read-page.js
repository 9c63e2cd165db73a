async function (args) {
  // Outline of an open MDN document: title, locale, slug, summary, sections with anchors, the
  // browser-compat-data keys of its compatibility tables, and specification links.
  // A bare function expression: no imports, DOM only.
  const includeSidebar = Boolean(args && args.includeSidebar)
  const match = /^\/([^/]+)\/docs\/(.+?)\/?$/.exec(location.pathname)
  const main = document.querySelector('main#content') || document.querySelector('main')
  if (!match || !main) return { error: 'not an MDN documentation page (expected /<locale>/docs/...)' }

  // Text with line breaks kept as spaces ("Fetch<br># fetch-method" -> "Fetch # fetch-method").
  const clean = (node) => {
    if (!node) return ''
    const copy = node.cloneNode(true)
    for (const br of copy.querySelectorAll('br')) br.replaceWith(' ')
    return copy.textContent.replace(/\s+/g, ' ').trim()
  }
  const h1 = main.querySelector('h1') || document.querySelector('h1')
  const base = location.href.split('#')[0]

  // Sections: headings with ids inside the article. The first paragraph is the summary.
  // The "Help improve MDN" footer (h2#feedback) is page furniture, not a section.
  const sections = [...main.querySelectorAll('h2[id], h3[id]')]
    .filter((h) => !h.closest('aside, nav, footer, .article-footer') && h.id !== 'feedback')
    .map((h) => ({ level: Number(h.tagName.slice(1)), id: h.id, text: clean(h) }))
  // The summary is the first prose paragraph: not the Baseline box (details.baseline-indicator) nor notes.
  const summaryNode = [...main.querySelectorAll('p')].find(
    (p) => !p.closest('aside, nav, header nav, .notecard, .baseline-indicator, details, footer') && clean(p).length > 30,
  )

  const compatQueries = [...document.querySelectorAll('[query]')]
    .filter((el) => el.localName.includes('compat'))
    .map((el) => el.getAttribute('query'))
  const specSection = main.querySelector('section[aria-labelledby="specifications"]') ||
    (document.getElementById('specifications') && document.getElementById('specifications').closest('section'))
  const specifications = specSection
    ? [...specSection.querySelectorAll('a[href^="http"]')].map((a) => ({ title: clean(a), url: a.href }))
    : []

  // Translations: the current renderer lists them in the `translations` attribute (JSON) of
  // <mdn-language-switcher>; older pages had <link rel="alternate" hreflang> in the head.
  function otherLocales(current) {
    const switcher = document.querySelector('mdn-language-switcher[translations]')
    let locales = []
    if (switcher) {
      try {
        const list = JSON.parse(switcher.getAttribute('translations'))
        if (Array.isArray(list)) locales = list.map((t) => t && t.locale).filter((l) => typeof l === 'string')
      } catch {}
    }
    if (locales.length === 0) {
      locales = [...document.querySelectorAll('link[rel="alternate"][hreflang]')].map((l) => l.getAttribute('hreflang'))
    }
    return [...new Set(locales)].filter((l) => l && l !== 'x-default' && l.toLowerCase() !== current.toLowerCase())
  }

  const result = {
    title: clean(h1),
    locale: match[1],
    slug: match[2],
    url: base,
    summary: clean(summaryNode),
    sections,
    compatQueries,
    specifications,
    otherLocales: otherLocales(match[1]),
  }
  // The Baseline box under the title: its level is a class (high, low, no), its label the status title.
  const baselineBox = main.querySelector('details.baseline-indicator')
  result.baseline = baselineBox
    ? {
        level: [...baselineBox.classList].find((c) => c !== 'baseline-indicator') || null,
        label: clean(baselineBox.querySelector('.status-title')),
      }
    : null
  if (includeSidebar) {
    const sidebar = document.getElementById('main-sidebar') || document.querySelector('aside[class*="sidebar"], nav[class*="sidebar"]')
    // Reference sidebars hold a thousand links and more: keep 100 around the current page's link
    // (the one whose path is the page's slug), each with its path after /<locale>/docs/.
    const links = sidebar ? [...sidebar.querySelectorAll('a[href*="/docs/"]')] : []
    const here = links.findIndex((a) => a.getAttribute('aria-current') === 'page')
    const start = Math.max(0, Math.min(here - 50, links.length - 100))
    const docs = `/${match[1]}/docs/`
    result.sidebarLinks = links.slice(start, start + 100).map((a) => {
      const { pathname } = new URL(a.href)
      return { text: clean(a), path: pathname.startsWith(docs) ? pathname.slice(docs.length) : a.href }
    })
  }
  return result
}
