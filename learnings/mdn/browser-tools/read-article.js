import { blocks } from './lib/markdown.js'

/**
 * The body of the open MDN document as compact markdown, or one section of it (with its
 * subsections), a part of about `maxChars` characters at a time (`offset`, `next`).
 */
export default async function readArticle(args) {
  const maxChars = Number.isInteger(args?.maxChars) ? Math.max(200, args.maxChars) : 3000
  const offset = Number.isInteger(args?.offset) ? Math.max(0, args.offset) : 0
  const wanted = typeof args?.section === 'string' ? args.section.trim() : ''
  const main = document.querySelector('main#content') || document.querySelector('main')
  if (!/^\/[^/]+\/docs\//.test(location.pathname) || !main) {
    return { error: 'not an MDN documentation page (expected /<locale>/docs/...)' }
  }
  // The "Help improve MDN" footer (h2#feedback) is page furniture, not part of the article.
  const feedback = main.querySelector('#feedback')
  let all = blocks(main)
  if (feedback) {
    const at = all.findIndex((b) => /^#+ Help improve MDN$/.test(b))
    if (at >= 0) all = all.slice(0, at)
  }

  if (wanted) {
    // A section: its heading, by anchor id ("browser_compatibility") or text, to the next heading
    // of the same or a higher level.
    const norm = (s) => s.replace(/_/g, ' ').toLowerCase().trim()
    const level = (b) => (/^(#+) /.exec(b) || [])[1]?.length || 0
    const start = all.findIndex((b) => level(b) > 1 && norm(b.replace(/^#+ /, '')) === norm(wanted))
    if (start < 0) return { error: `no section "${wanted}"`, sections: all.filter((b) => level(b) > 1).map((b) => b.replace(/^#+ /, '')) }
    let end = start + 1
    while (end < all.length && !(level(all[end]) && level(all[end]) <= level(all[start]))) end++
    all = all.slice(start, end)
  }

  const taken = []
  let length = 0
  let index = offset
  for (; index < all.length; index++) {
    if (taken.length && length + all[index].length > maxChars) break
    taken.push(all[index])
    length += all[index].length + 2
  }
  return { text: taken.join('\n\n'), next: index < all.length ? index : null }
}
