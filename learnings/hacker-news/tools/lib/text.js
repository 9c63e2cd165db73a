/** Hacker News HTML (comments, story text) as plain text; links become their URLs. */
export function htmlToText(html) {
  if (!html) return null
  return html
    .replace(/<p>/g, '\n\n')
    .replace(/<a [^>]*href="([^"]*)"[^>]*>[^<]*<\/a>/g, '$1')
    .replace(/<[^>]+>/g, '')
    .replace(/&#x2F;/g, '/')
    .replace(/&#x27;|&#39;/g, "'")
    .replace(/&quot;/g, '"')
    .replace(/&gt;/g, '>')
    .replace(/&lt;/g, '<')
    .replace(/&amp;/g, '&')
    .trim()
}
