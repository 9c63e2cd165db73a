async function (args) {
  // Reads the "Browser compatibility" table(s) of the open MDN reference page: one row per
  // feature, one cell per browser with the support level and the version it arrived in.
  // A bare function expression: no imports, DOM only.

  // MDN renders the compatibility table in web components with open shadow roots, which
  // document.querySelector does not see into; deepQueryAll does.
  const deepQueryAll = (root, selector) => {
    const found = []
    const visit = (node) => {
      for (const match of node.querySelectorAll(selector)) found.push(match)
      for (const element of node.querySelectorAll('*')) if (element.shadowRoot) visit(element.shadowRoot)
    }
    if (root.shadowRoot) visit(root.shadowRoot)
    visit(root)
    return found
  }
  const textWithout = (node, dropSelector) => {
    if (!node) return ''
    const copy = node.cloneNode(true)
    if (dropSelector) for (const drop of copy.querySelectorAll(dropSelector)) drop.remove()
    return copy.textContent.replace(/\s+/g, ' ').trim()
  }
  const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms))

  const LEVELS = ['yes', 'partial', 'preview', 'no', 'unknown', 'removed-partial']
  const CELL_ICONS = ['prefix', 'footnote', 'altname', 'disabled', 'more']
  const STATUS_ICONS = ['experimental', 'deprecated', 'nonstandard']

  // The `bc-<prefix>-<value>` class of an element: classValue(td, 'bc-browser-') -> 'chrome'.
  function classValue(element, prefix) {
    const name = [...element.classList].find((c) => c.startsWith(prefix))
    return name ? name.slice(prefix.length) : null
  }

  // Names of the `icon-<name>` icons inside a node.
  function iconNames(node, allowed) {
    const names = new Set()
    for (const icon of node.querySelectorAll('[class*="icon-"]')) {
      for (const c of icon.classList) {
        const name = c.startsWith('icon-') ? c.slice(5) : null
        if (name && allowed.includes(name)) names.add(name)
      }
    }
    return [...names]
  }

  // Row depth: the `--compat-feature-depth: N` style of the current renderer, or the older
  // `bc-feature-depth-N` class.
  function featureDepth(th) {
    const styled = th.style && th.style.getPropertyValue('--compat-feature-depth')
    const value = styled && styled.trim() !== '' ? styled : classValue(th, 'bc-feature-depth-')
    const depth = Number.parseInt(value ?? '0', 10)
    return Number.isInteger(depth) ? depth : 0
  }

  function parseTable(table, wanted) {
    const browsers = [...table.querySelectorAll('thead tr.bc-browsers th.bc-browser')].map((th) => ({
      id: classValue(th, 'bc-browser-'),
      name: textWithout(th.querySelector('.bc-head-txt-label') || th),
    }))
    const features = []
    for (const row of table.querySelectorAll('tbody > tr')) {
      const th = row.querySelector('th.bc-feature')
      if (!th) continue
      const header = th.querySelector('.bc-table-row-header') || th
      const support = {}
      for (const td of row.querySelectorAll('td.bc-support')) {
        const browser = classValue(td, 'bc-browser-')
        if (!browser || (wanted && !wanted.includes(browser))) continue
        const level = classValue(td, 'bc-supports-')
        const label = td.querySelector('button .bc-version-label') || td.querySelector('.bc-version-label')
        support[browser] = {
          support: LEVELS.includes(level) ? level : level || 'unknown',
          version: label ? label.textContent.replace(/\s+/g, ' ').trim() || null : null,
          notes: iconNames(td.querySelector('button') || td, CELL_ICONS),
        }
      }
      const link = header.matches('a[href]') ? header : null
      features.push({
        name: textWithout(header, '.bc-icons'),
        depth: featureDepth(th),
        url: link ? link.href : null,
        status: iconNames(header, STATUS_ICONS),
        support,
      })
    }
    return { browsers: wanted ? browsers.filter((b) => wanted.includes(b.id)) : browsers, features }
  }

  const waitMs = Number.isInteger(args?.waitMs) ? Math.max(0, args.waitMs) : 8000
  const wanted = Array.isArray(args?.browsers) && args.browsers.length ? args.browsers.map(String) : null

  // Compat sections: a heading with id browser_compatibility, and one host element per BCD query.
  const section = document.querySelector('section[aria-labelledby="browser_compatibility"]') ||
    document.getElementById('browser_compatibility')?.closest('section') ||
    null
  const hosts = [...document.querySelectorAll('[query]')].filter((el) => el.localName.includes('compat'))
  if (!section && hosts.length === 0) {
    return { error: 'this page has no Browser compatibility section', url: location.href }
  }

  // The table is rendered client-side after its data loads; scroll to it and wait.
  ;(section || hosts[0]).scrollIntoView({ block: 'center' })
  const roots = hosts.length ? hosts : [section]
  const deadline = Date.now() + waitMs
  let tables = []
  for (;;) {
    tables = roots.flatMap((root) => deepQueryAll(root, 'table.bc-table').map((table) => ({ root, table })))
    if (tables.length >= roots.length || Date.now() >= deadline) break
    await sleep(200)
  }
  if (tables.length === 0) {
    const message = roots.map((root) => deepQueryAll(root, 'p').map((p) => p.textContent.trim()).join(' ')).join(' ').trim()
    return { error: `the compatibility table did not render within ${waitMs} ms${message ? `: ${message}` : ''}`, queries: hosts.map((h) => h.getAttribute('query')) }
  }

  return {
    url: location.href.split('#')[0],
    tables: tables.map(({ root, table }) => ({ query: root.getAttribute?.('query') ?? null, ...parseTable(table, wanted) })),
  }
}
