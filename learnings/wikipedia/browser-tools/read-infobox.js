async function (args) {
  // Reads a Wikipedia infobox (`table.infobox`) as label/value pairs. A bare function
  // expression: no imports, DOM only.
  const index = Number.isInteger(args && args.index) ? args.index : 0
  const boxes = [...document.querySelectorAll('#mw-content-text table.infobox')]
  if (boxes.length === 0) return { error: 'no infobox on this page' }
  const box = boxes[index]
  if (!box) return { error: `infobox index ${index} out of range (${boxes.length} on this page)` }

  const NOISE = 'sup.reference, .mw-editsection, style, script, .noprint, .mw-empty-elt'
  // Text of a cell with list items and line breaks turned into "; " separators.
  const valueOf = (cell) => {
    const copy = cell.cloneNode(true)
    for (const noise of copy.querySelectorAll(NOISE)) noise.remove()
    for (const br of copy.querySelectorAll('br')) br.replaceWith('\n')
    for (const li of copy.querySelectorAll('li')) li.append('\n')
    return copy.textContent
      .split('\n')
      .map((part) => part.replace(/\s+/g, ' ').trim())
      .filter(Boolean)
      .join('; ')
  }

  const caption = box.querySelector(':scope > caption')
  let title = caption ? valueOf(caption) : ''
  let group = null
  let image = null
  const entries = []
  for (const row of box.rows) {
    const header = row.querySelector(':scope > th')
    const data = row.querySelector(':scope > td')
    if (header && header.matches('.infobox-above, .infobox-title') && !title) { title = valueOf(header); continue }
    if (header && !data) {
      // Older infoboxes put the title in their first header row; later full-width header rows
      // start a group of fields ("Personal details", "Government"...).
      const text = valueOf(header)
      if (!title && entries.length === 0 && group === null) title = text
      else group = text || group
      continue
    }
    if (!data) continue
    if (!image && data.matches('.infobox-image') && data.querySelector('img')) {
      const img = data.querySelector('img')
      const caption = data.querySelector('.infobox-caption')
      image = { src: img.currentSrc || img.src, alt: img.alt || '', caption: caption ? valueOf(caption) : '' }
      continue
    }
    if (!header) continue
    const label = valueOf(header)
    const value = valueOf(data)
    if (!label || !value) continue
    entries.push({ label, value, group })
  }

  const fields = {}
  for (const { label, value } of entries) fields[label] = label in fields ? `${fields[label]} | ${value}` : value
  return { title, image, entries, fields, count: entries.length, infoboxes: boxes.length }
}
