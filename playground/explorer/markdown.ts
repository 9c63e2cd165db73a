/** Escapes text for HTML. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`)
}

function inline(text: string): string {
  return escapeHtml(text)
    .replace(/`([^`]+)`/g, '<code>$1</code>')
    .replace(/\*\*([^*]+)\*\*/g, '<strong>$1</strong>')
    .replace(/(^|[^*])\*([^*\s][^*]*)\*/g, '$1<em>$2</em>')
    .replace(/\[([^\]]+)\]\((https?:\/\/[^)\s]+)\)/g, '<a href="$2" rel="noreferrer">$1</a>')
}

/**
 * A small Markdown renderer for notes: headings, paragraphs, lists, fenced code, inline code,
 * emphasis and http(s) links. Everything else is text; HTML in the source is escaped.
 */
export function renderMarkdown(source: string): string {
  const out: string[] = []
  const lines = source.replace(/\r\n?/g, '\n').split('\n')
  let paragraph: string[] = []
  let list: { tag: 'ul' | 'ol'; items: string[] } | undefined
  const flush = () => {
    if (paragraph.length) out.push(`<p>${inline(paragraph.join(' '))}</p>`)
    if (list) out.push(`<${list.tag}>${list.items.map((i) => `<li>${inline(i)}</li>`).join('')}</${list.tag}>`)
    paragraph = []
    list = undefined
  }
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!
    const fence = /^```/.exec(line)
    const heading = /^(#{1,6})\s+(.*)$/.exec(line)
    const item = /^\s*(?:([-*+])|(\d+)[.)])\s+(.*)$/.exec(line)
    if (fence) {
      flush()
      const code: string[] = []
      while (++i < lines.length && !lines[i]!.startsWith('```')) code.push(lines[i]!)
      out.push(`<pre><code>${escapeHtml(code.join('\n'))}</code></pre>`)
    } else if (heading) {
      flush()
      const level = Math.min(6, heading[1]!.length + 2)
      out.push(`<h${level}>${inline(heading[2]!)}</h${level}>`)
    } else if (item) {
      const tag = item[1] ? 'ul' : 'ol'
      if (paragraph.length || (list && list.tag !== tag)) flush()
      list ??= { tag, items: [] }
      list.items.push(item[3]!)
    } else if (line.trim() === '') flush()
    else if (list && /^\s+\S/.test(line)) list.items[list.items.length - 1] += ` ${line.trim()}`
    else {
      if (list) flush()
      paragraph.push(line.trim())
    }
  }
  flush()
  return out.join('\n')
}
