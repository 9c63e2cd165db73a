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
  let image = null
  const entries = []
  // Groups: a full-width header row starts one ("Personal details", "Population"). Old country
  // infoboxes list a group's members as "• Total" rows, and a later row without the bullet
  // ("GDP (PPP)") ends the group; it is then the parent of the "•" rows that follow it.
  let group = null
  let bulletsInGroup = false
  let parent = null
  let headerRowIndex = -1
  for (const [rowIndex, row] of [...box.rows].entries()) {
    const header = row.querySelector(':scope > th')
    const data = row.querySelector(':scope > td')
    if (header && header.matches('.infobox-above, .infobox-title') && !title) { title = valueOf(header); continue }
    if (header && !data) {
      // Older infoboxes put the title in their first header row.
      const text = valueOf(header)
      if (!title && entries.length === 0 && group === null) title = text
      else if (text) { group = text; parent = text; bulletsInGroup = false; headerRowIndex = rowIndex }
      continue
    }
    if (!data) continue
    if (!header) {
      // A full-width cell: the image (class infobox-image, or an untagged cell with a picture in
      // old infoboxes), the content of the header row just above it (td.infobox-full-data under
      // "Influenced by"), or a "Label: value" line.
      const img = data.querySelector('img')
      if (img && (data.matches('.infobox-image') || !data.matches('.infobox-full-data'))) {
        if (!image) {
          const imageCaption = data.querySelector('.infobox-caption')
          image = { src: img.currentSrc || img.src, alt: img.alt || '', caption: valueOf(imageCaption || data) }
        }
        continue
      }
      const value = valueOf(data)
      if (!value) continue
      if (group !== null && headerRowIndex === rowIndex - 1) { entries.push({ label: group, value, group }); continue }
      const labelled = /^([^:;]{1,40}):\s*(.+)$/.exec(value)
      if (labelled) entries.push({ label: labelled[1].trim(), value: labelled[2].replace(/^[;\s]+/, ''), group })
      continue
    }
    const label = valueOf(header)
    const value = valueOf(data)
    if (!label || !value) continue
    if (/^•/.test(label)) {
      if (parent === group) bulletsInGroup = true
      entries.push({ label, value, group: parent })
      continue
    }
    if (bulletsInGroup) { group = null; bulletsInGroup = false }
    entries.push({ label, value, group })
    parent = label
  }

  const fields = {}
  for (const { label, value } of entries) fields[label] = label in fields ? `${fields[label]} | ${value}` : value
  return { title, image, entries, fields, count: entries.length, infoboxes: boxes.length }
}
