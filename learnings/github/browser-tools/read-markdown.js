import { toMarkdown } from './lib/markdown.js'

/**
 * Rendered Markdown on GitHub as compact markdown: the README on a repository's front page, a .md
 * file view, or a wiki page. Rendered Markdown is always `article.markdown-body`, in the page or
 * in the React overview's embedded JSON. Long documents come a part at a time (`offset`, `next`).
 */
export default async function readMarkdown(args) {
  const maxChars = Number.isInteger(args?.maxChars) ? Math.max(200, args.maxChars) : 3000
  // Without a size, a README longer than a part opens with its first 1,500 characters and its outline.
  const lead = Number.isInteger(args?.maxChars) ? undefined : 1500
  const offset = Number.isInteger(args?.offset) ? Math.max(0, args.offset) : 0
  // The React repository overview (2024 on) may leave the README to the browser (`data-ssr="false"`):
  // until its script has run, the README's HTML is only in the JSON the page embeds for the app
  // (`overviewFiles[].richText`). It is read from there into an inert document.
  const findFiles = (value, depth) => {
    if (!value || typeof value !== 'object' || depth > 4) return null
    if (Array.isArray(value.overviewFiles)) return value.overviewFiles
    for (const inner of Object.values(value)) {
      const found = findFiles(inner, depth + 1)
      if (found) return found
    }
    return null
  }
  const embeddedReadme = () => {
    for (const node of document.querySelectorAll('script[type="application/json"][data-target$=".embeddedData"]')) {
      let files = null
      try { files = findFiles(JSON.parse(node.textContent), 0) } catch { files = null }
      const file = files && (files.find((f) => f && f.richText && f.preferredFileType === 'readme') || files.find((f) => f && f.richText))
      if (!file) continue
      const doc = new DOMParser().parseFromString(file.richText, 'text/html')
      return doc.querySelector('article.markdown-body') || doc.body
    }
    return null
  }
  const article = document.querySelector('#readme article.markdown-body') ||
    document.querySelector('article.markdown-body') ||
    document.querySelector('.markdown-body') ||
    embeddedReadme()
  if (!article) return { error: 'no rendered markdown (article.markdown-body) on this page' }

  return toMarkdown(article, { offset, maxChars, lead, links: Boolean(args?.links) })
}
