// The fixture format (header comment, then the page) lives in src/compiler/fixture-header.ts,
// which validation reads too; this is what `snapshot` evaluates in the tab.

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
