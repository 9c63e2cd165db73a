// What `snapshot` (and the MCP server's site_skills_snapshot) evaluates in the tab, in an isolated
// world of its own (see fixture.ts): the page's scripts cannot replace a method it calls.

/** What `snapshot` leaves out of the page, as the fixture's header says. */
export const SNAPSHOT_CHANGES =
  'scripts (also inside srcdoc and templates), noscript, on* event handler attributes, javascript: URLs, ' +
  'data: documents, meta refresh and markup that would reparse as script removed; ' +
  'form values written into attributes, never those of password, one-time-code or secret fields'

/**
 * Evaluated in the page: a copy of the document that holds nothing that runs, form state written
 * into attributes so that it survives serialization, and the doctype. Returns `{ url, html }`.
 *
 * - `<script>` elements (HTML and SVG), `on*` attributes, `javascript:` URLs in any attribute that
 *   takes a URL (and in SVG animation values), `data:` URLs of HTML, XML or SVG documents, and
 *   `<meta http-equiv=refresh>` are removed, also inside `<template>` contents; `srcdoc` documents
 *   are parsed and cleaned the same way, up to SRCDOC_DEPTH deep (deeper ones are dropped).
 * - What the HTML serializer would write out as markup that reparses into elements is removed:
 *   `<noscript>` (parsed as markup in a `srcdoc` copy, as raw text when served), an element whose
 *   content is written raw (`<style>`, `<xmp>`, `<iframe>`, ...) when that content holds `</`, and a
 *   comment that would end early (`-->`, `--!>`, or a leading `>` or `->`).
 * - A field's value is kept unless the field is or was a secret by any of its attributes: its type
 *   is or was `password` (a "show password" toggle makes it `text`), its `autocomplete` asks for a
 *   password or a one-time code, or its name or id says password, passcode, pwd, secret, token or
 *   otp. Such a field keeps no value at all (neither typed nor from the markup).
 */
export const CAPTURE_EXPRESSION = `(() => {
  const SRCDOC_DEPTH = 8
  const URL_ATTRIBUTES = ['href', 'src', 'action', 'formaction', 'xlink:href', 'data', 'poster', 'background', 'codebase', 'cite', 'ping']
  const ANIMATION_ATTRIBUTES = ['values', 'to', 'from', 'by']
  const RAW_TEXT = ['STYLE', 'XMP', 'IFRAME', 'NOEMBED', 'NOFRAMES', 'PLAINTEXT', 'NOSCRIPT', 'SCRIPT']
  const bare = (value) => value.replace(/[\\u0000-\\u0020]/g, '').toLowerCase()
  const DOCUMENT_DATA_URL = /^data:[^,;]*(?:html|xml|svg)/
  const runs = (name, value) =>
    (URL_ATTRIBUTES.includes(name) && (bare(value).startsWith('javascript:') || DOCUMENT_DATA_URL.test(bare(value)))) ||
    (ANIMATION_ATTRIBUTES.includes(name) && bare(value).includes('javascript:'))
  const EARLY_COMMENT_END = /--!?>|^-?>/
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
  const cleanElement = (el, depth) => {
    const tag = el.tagName.toUpperCase()
    if (tag === 'SCRIPT' || tag === 'NOSCRIPT' || (RAW_TEXT.includes(tag) && el.innerHTML.includes('</')) ||
        (tag === 'META' && bare(el.getAttribute('http-equiv') || '') === 'refresh')) {
      el.remove()
      return
    }
    for (const name of el.getAttributeNames()) {
      const lower = name.toLowerCase()
      if (lower.startsWith('on') || runs(lower, el.getAttribute(name))) el.removeAttribute(name)
    }
    if ((tag === 'INPUT' || tag === 'TEXTAREA') && isSecret(el)) {
      el.removeAttribute('value')
      if (tag === 'TEXTAREA') el.textContent = ''
    }
    if (el.hasAttribute('srcdoc')) {
      if (depth >= SRCDOC_DEPTH) el.removeAttribute('srcdoc')
      else {
        const inner = new DOMParser().parseFromString(el.getAttribute('srcdoc'), 'text/html')
        clean(inner, depth + 1)
        el.setAttribute('srcdoc', doctypeOf(inner) + inner.documentElement.outerHTML)
      }
    }
    if (tag === 'TEMPLATE') clean(el.content, depth)
  }
  // Every node under root, in document order, without a method of the nodes' own (a live list would move).
  const clean = (root, depth) => {
    const nodes = []
    const walker = document.createTreeWalker(root, NodeFilter.SHOW_ELEMENT | NodeFilter.SHOW_COMMENT)
    for (let node = walker.currentNode; node; node = walker.nextNode()) nodes.push(node)
    for (const node of nodes) {
      if (node.nodeType === Node.COMMENT_NODE) {
        if (EARLY_COMMENT_END.test(node.data)) node.remove()
      } else if (node.nodeType === Node.ELEMENT_NODE) cleanElement(node, depth)
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
  clean(root, 0)
  const doctype = doctypeOf(document)
  return { url: location.href, html: (doctype ? doctype + '\\n' : '') + root.outerHTML }
})()`
