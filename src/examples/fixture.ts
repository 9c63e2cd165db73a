// The fixture format (header comment, then the page) lives in src/compiler/fixtures/header.ts,
// which validation reads too; this is what `snapshot` (and the MCP server's site_skills_snapshot)
// evaluates in the tab.
import { SiteToolError } from '../../runtime/index'
import { type CdpClient, command } from '../../runtime/internal'

/** What `snapshot` leaves out of the page, as the fixture's header says. */
export const SNAPSHOT_CHANGES =
  'scripts (also inside srcdoc), on* event handler attributes and javascript: URLs removed; ' +
  'form values written into attributes, never those of password, one-time-code or secret fields'

/**
 * Evaluated in the page: a copy of the document that holds nothing that runs, form state written
 * into attributes so that it survives serialization, and the doctype. Returns `{ url, html }`.
 *
 * - `<script>` elements (HTML and SVG), `on*` attributes, and `javascript:` URLs in any attribute
 *   that takes a URL are removed; `srcdoc` documents are parsed and cleaned the same way.
 * - A field's value is kept unless the field is or was a secret by any of its attributes: its type
 *   is or was `password` (a "show password" toggle makes it `text`), its `autocomplete` asks for a
 *   password or a one-time code, or its name or id says password, passcode, pwd, secret, token or
 *   otp. Such a field keeps no value at all (neither typed nor from the markup).
 */
const CAPTURE_EXPRESSION = `(() => {
  const URL_ATTRIBUTES = ['href', 'src', 'action', 'formaction', 'xlink:href', 'data', 'poster', 'background']
  const isJavascriptUrl = (value) => value.replace(/[\\u0000-\\u0020]/g, '').toLowerCase().startsWith('javascript:')
  const SECRET_AUTOCOMPLETE = /(?:^|\\s)(?:current-password|new-password|one-time-code)(?:$|\\s)/i
  const SECRET_NAME = /pass(?:word|wd|code|phrase)|pwd|secret|token|(?:^|[^a-z])otp(?:$|[^a-z])/i
  const isSecret = (el) =>
    el.type === 'password' || /^password$/i.test(el.getAttribute('type') || '') ||
    SECRET_AUTOCOMPLETE.test(el.getAttribute('autocomplete') || '') ||
    SECRET_NAME.test(el.getAttribute('name') || '') || SECRET_NAME.test(el.id || '')
  const doctypeOf = (doc) => {
    const type = doc.doctype
    return type ? '<!DOCTYPE ' + type.name + (type.publicId ? ' PUBLIC "' + type.publicId + '"' : '') +
      (type.systemId ? ' "' + type.systemId + '"' : '') + '>' : ''
  }
  const clean = (root) => {
    root.querySelectorAll('script').forEach((s) => s.remove())
    for (const el of [root, ...root.querySelectorAll('*')]) {
      for (const name of el.getAttributeNames()) {
        const lower = name.toLowerCase()
        if (lower.startsWith('on') || (URL_ATTRIBUTES.includes(lower) && isJavascriptUrl(el.getAttribute(name))))
          el.removeAttribute(name)
      }
      if ((el.tagName === 'INPUT' || el.tagName === 'TEXTAREA') && isSecret(el)) {
        el.removeAttribute('value')
        if (el.tagName === 'TEXTAREA') el.textContent = ''
      }
      if (el.hasAttribute('srcdoc')) {
        const inner = new DOMParser().parseFromString(el.getAttribute('srcdoc'), 'text/html')
        clean(inner.documentElement)
        el.setAttribute('srcdoc', doctypeOf(inner) + inner.documentElement.outerHTML)
      }
    }
  }
  const root = document.documentElement.cloneNode(true)
  const live = document.documentElement.querySelectorAll('input, textarea, select')
  const copies = root.querySelectorAll('input, textarea, select')
  live.forEach((el, i) => {
    const copy = copies[i]
    if (!copy) return
    if (el.tagName !== 'SELECT' && isSecret(el)) {
      copy.removeAttribute('value')
      if (el.tagName === 'TEXTAREA') copy.textContent = ''
    } else if (el.tagName === 'TEXTAREA') copy.textContent = el.value
    else if (el.tagName === 'SELECT') [...copy.options].forEach((o, j) => o.toggleAttribute('selected', el.options[j].selected))
    else if (el.type === 'checkbox' || el.type === 'radio') copy.toggleAttribute('checked', el.checked)
    else if (el.type !== 'file') copy.setAttribute('value', el.value)
  })
  clean(root)
  const doctype = doctypeOf(document)
  return { url: location.href, html: (doctype ? doctype + '\\n' : '') + root.outerHTML }
})()`

/** A page as `snapshot` saves it: where the tab was when read, and its cleaned HTML. */
export interface CapturedPage {
  url: string
  html: string
}

/** Reads the tab of `client` with CAPTURE_EXPRESSION. */
export async function capturePage(client: CdpClient): Promise<CapturedPage> {
  const { result, exceptionDetails } = await command(client, 'Runtime.evaluate', {
    expression: CAPTURE_EXPRESSION,
    returnByValue: true,
  })
  if (exceptionDetails) throw new SiteToolError('cdp-error', `cannot read the page: ${exceptionDetails.text}`)
  return result.value as CapturedPage
}

/** A fixture name from a URL: its last path segment, else its host, as lowercase words joined by "-". */
export function fixtureNameFromUrl(url: string): string {
  const parsed = new URL(url)
  const segment = parsed.pathname.split('/').filter(Boolean).at(-1) ?? parsed.hostname
  const slug = segment
    .replace(/\.html?$/i, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
  return slug.slice(0, 60) || 'page'
}
