// MDN renders interactive parts (the compatibility table among them) as web components with
// open shadow roots. document.querySelector does not see inside those; these helpers do.

/** Every element under `root` matching `selector`, looking inside open shadow roots too. */
export function deepQueryAll(root, selector) {
  const found = []
  const visit = (node) => {
    for (const match of node.querySelectorAll(selector)) found.push(match)
    for (const element of node.querySelectorAll('*')) {
      if (element.shadowRoot) visit(element.shadowRoot)
    }
  }
  if (root.shadowRoot) visit(root.shadowRoot)
  visit(root)
  return found
}

/** Text of a node without the icon labels MDN renders next to names, whitespace collapsed. */
export function textWithout(node, dropSelector) {
  if (!node) return ''
  const copy = node.cloneNode(true)
  if (dropSelector) for (const drop of copy.querySelectorAll(dropSelector)) drop.remove()
  return copy.textContent.replace(/\s+/g, ' ').trim()
}

export const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms))
