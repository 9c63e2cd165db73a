/**
 * The fixture file format: one HTML comment recording where and when the page was captured,
 * then the rendered DOM with scripts and inline event handlers removed.
 */

/** What the first line of a fixture records. */
export interface FixtureHeader {
  url: string
  captured: string
}

/** The fixture text: header line, then the page. `>` cannot end the comment early (encoded in the URL). */
export function formatFixture(header: FixtureHeader, html: string): string {
  const url = header.url.replace(/>/g, '%3E').replace(/\s/g, encodeURIComponent)
  return `<!-- site-skills fixture: url=${url} captured=${header.captured} -->\n${html}\n`
}

/**
 * Evaluated in the page: a copy of the document without `<script>` elements and `on*`
 * attributes, form state (values, checks, selections; never passwords) written into attributes
 * so that it survives serialization, and the doctype. Returns `{ url, html }`.
 */
export const CAPTURE_EXPRESSION = `(() => {
  const root = document.documentElement.cloneNode(true)
  const live = document.documentElement.querySelectorAll('input, textarea, select')
  const copies = root.querySelectorAll('input, textarea, select')
  live.forEach((el, i) => {
    const copy = copies[i]
    if (!copy) return
    if (el.tagName === 'TEXTAREA') copy.textContent = el.value
    else if (el.tagName === 'SELECT') [...copy.options].forEach((o, j) => o.toggleAttribute('selected', el.options[j].selected))
    else if (el.type === 'checkbox' || el.type === 'radio') copy.toggleAttribute('checked', el.checked)
    else if (el.type === 'password') copy.removeAttribute('value')
    else copy.setAttribute('value', el.value)
  })
  root.querySelectorAll('script').forEach((s) => s.remove())
  for (const el of [root, ...root.querySelectorAll('*')])
    for (const name of el.getAttributeNames()) if (/^on/i.test(name)) el.removeAttribute(name)
  const type = document.doctype
  const doctype = type ? '<!DOCTYPE ' + type.name + (type.publicId ? ' PUBLIC "' + type.publicId + '"' : '') +
    (type.systemId ? ' "' + type.systemId + '"' : '') + '>\\n' : ''
  return { url: location.href, html: doctype + root.outerHTML }
})()`
