async function (args) {
  // Reads a Wikipedia infobox (`table.infobox`) as label/value pairs. A bare function
  // expression: no imports, DOM only.
  const index = Number.isInteger(args && args.index) ? args.index : 0
  const boxes = [...document.querySelectorAll('#mw-content-text table.infobox')]
  if (boxes.length === 0) return { error: 'no infobox on this page' }
  const box = boxes[index]
  if (!box) return { error: `infobox index ${index} out of range (${boxes.length} on this page)` }

  // Footnote markers, edit links, print-only and screen-reader-only text, media players.
  const NOISE = 'sup.reference, .mw-editsection, style, script, .noprint, .navbar, .mw-empty-elt, .sr-only, audio, video'
  // A block that follows another block, text between them aside, starts a line: the names in a
  // settlement's title are one div each. A div after text ("Capital<div>and largest city</div>",
  // "Population<div> (2011)</div>") continues the line, after a space.
  const BLOCK = /^(DIV|P|UL|OL|TABLE)$/
  const followsBlock = (node) => {
    let before = node.previousSibling
    while (before && before.nodeType === Node.TEXT_NODE && !before.textContent.trim()) before = before.previousSibling
    return Boolean(before && before.nodeType === Node.ELEMENT_NODE && BLOCK.test(before.tagName))
  }
  // Lines of a cell: line breaks, list items, rows of a table inside it and consecutive blocks end
  // a line; the cells of such a row are separated by a space.
  const linesOf = (cell) => {
    const copy = cell.cloneNode(true)
    for (const noise of copy.querySelectorAll(NOISE)) noise.remove()
    for (const br of copy.querySelectorAll('br')) br.replaceWith('\n')
    for (const li of copy.querySelectorAll('li')) li.append('\n')
    for (const inner of copy.querySelectorAll('td, th')) inner.append(' ')
    for (const tr of copy.querySelectorAll('tr')) tr.append('\n')
    for (const block of copy.querySelectorAll('div, p')) block.before(followsBlock(block) ? '\n' : ' ')
    return copy.textContent
      .split('\n')
      .map((part) => part.replace(/\s+/g, ' ').trim())
      .filter(Boolean)
  }
  const valueOf = (cell) => linesOf(cell).join('; ')
  // What a cell holds before one of its descendants, in a detached element.
  const textBefore = (cell, node) => {
    const range = document.createRange()
    range.setStart(cell, 0)
    range.setEndBefore(node)
    const holder = document.createElement('div')
    holder.append(range.cloneContents())
    return holder
  }
  // "Motto: ..." and "Anthem: ..." lines of a full-width cell, one entry per label. A label starts
  // with a capital or a digit: "(English: ...)" under a motto is part of it.
  const LABELLED = /^([\p{Lu}\d][^:;]{0,39}):\s*(.*)$/u
  const labelledLines = (lines) => {
    const found = []
    for (const line of lines) {
      const match = LABELLED.exec(line)
      if (match) found.push({ label: match[1].trim(), parts: match[2] ? [match[2]] : [] })
      else if (found.length) found[found.length - 1].parts.push(line)
      else return []
    }
    return found.filter((item) => item.parts.length).map((item) => ({ label: item.label, value: item.parts.join('; ') }))
  }

  // A picture, not an icon (a speaker or an edit pencil is at most 50 pixels wide).
  const isPicture = (img) => {
    const width = img.getAttribute('width')
    return !(width && Number(width) <= 50)
  }
  // The rows of the box. A box put into a full-width cell of another (an infobox in another one's
  // module, a child box) is read in place, as the reader sees it: part of the outer box; so is a
  // plain table of label and value rows that fills such a cell (old boxes listed their members so).
  // (Small tables inside a header cell, like the native names under a country's title, are that
  // cell's text; a table of pictures, like a flag beside a coat of arms, is an image row.)
  const rows = []
  const tableIn = (cells) => {
    if (cells.length !== 1 || cells[0].tagName !== 'TD' || cells[0].matches(NOISE)) return null
    const box = cells[0].querySelector('table.infobox, table.infobox-subbox')
    if (box) return box
    const plain = cells[0].querySelector('table')
    if (!plain || valueOf(plain) !== valueOf(cells[0]) || [...plain.querySelectorAll('img')].some(isPicture)) return null
    return [...plain.rows].some((row) => row.cells.length === 2) ? plain : null
  }
  const collect = (table, depth) => {
    for (const row of table.rows) {
      const inner = depth < 4 ? tableIn([...row.cells]) : null
      if (inner) collect(inner, depth + 1)
      else rows.push(row)
    }
  }
  collect(box, 0)

  const caption = box.querySelector(':scope > caption')
  let title = caption ? valueOf(caption) : ''
  let image = null
  let imageRow = -1
  const entries = []
  // Groups: a full-width header row starts one ("Personal details", "Population"). Old country
  // infoboxes list a group's members as "• Total" rows, and a later row without the bullet
  // ("GDP (PPP)") ends the group; it is then the parent of the "•" rows that follow it.
  let group = null
  let bulletsInGroup = false
  let parent = null
  // A header row whose content is the full-width row(s) below it ("Influenced by"), until a
  // labelled row; rows hidden between them (empty child-box rows) do not end it.
  let pendingHeader = null
  const addLabelled = (label, value) => {
    pendingHeader = null
    if (/^•/.test(label)) {
      if (parent === group) bulletsInGroup = true
      entries.push({ group: parent, label, value })
      return
    }
    if (bulletsInGroup) { group = null; bulletsInGroup = false }
    entries.push({ group, label, value })
    parent = label
  }
  const setImage = (cell, img, rowIndex) => {
    const imageCaption = cell.querySelector('.infobox-caption')
    image = { src: img.currentSrc || img.src, alt: img.alt || '', caption: valueOf(imageCaption || cell) }
    imageRow = rowIndex
  }

  for (const [rowIndex, row] of rows.entries()) {
    // Cells that are page furniture (a portal bar, print-hidden links) are not the box's content.
    const cells = [...row.cells].filter((cell) => !cell.matches(NOISE))
    const headers = cells.filter((cell) => cell.tagName === 'TH')
    const data = cells.filter((cell) => cell.tagName === 'TD')
    const header = headers[0]
    if (header && header.matches('.infobox-above, .infobox-title') && !title) { title = valueOf(header); continue }
    if (header && data.length === 0) {
      // Older infoboxes put the title in their first header row.
      const text = valueOf(header)
      if (!title && entries.length === 0 && group === null) title = text
      else if (text) { group = text; parent = text; bulletsInGroup = false; pendingHeader = text }
      continue
    }
    if (data.length === 0) continue
    if (header) {
      const label = valueOf(header)
      const value = data.map(valueOf).filter(Boolean).join('; ')
      if (label && value) addLabelled(label, value)
      continue
    }
    if (data.length > 1) {
      // Label and value in two plain cells ("Kingdom:" | "Animalia" in a taxobox).
      const label = valueOf(data[0]).replace(/\s*:$/, '')
      const value = data.slice(1).map(valueOf).filter(Boolean).join('; ')
      if (label && value) addLabelled(label, value)
      continue
    }
    // A full-width cell: the image, the content of the header row above it, "Label: value"
    // lines, or the caption row under an image (taxoboxes).
    const cell = data[0]
    const lines = linesOf(cell)
    // A picture makes its cell an image row, whatever its caption says ("Clockwise from top: ..."), unless a label comes
    // before it ("Dual flag: Wiphala" above the flag, "Coat of arms:" above the arms).
    const picture = [...cell.querySelectorAll('img')].find(isPicture)
    if (picture && !cell.matches('.infobox-image') && LABELLED.test(linesOf(textBefore(cell, picture))[0] || '')) {
      for (const item of labelledLines(lines)) addLabelled(item.label, item.value)
      continue
    }
    if (picture && (cell.matches('.infobox-image') || !pendingHeader || lines.length === 0)) {
      if (!image && (cell.matches('.infobox-image') || entries.length === 0)) setImage(cell, picture, rowIndex)
      continue
    }
    if (lines.length === 0) continue
    const labelled = labelledLines(lines)
    if (labelled.length) {
      for (const item of labelled) addLabelled(item.label, item.value)
      continue
    }
    if (pendingHeader) { entries.push({ group, label: pendingHeader, value: lines.join('; ') }); continue }
    if (image && !image.caption && imageRow === rowIndex - 1) image.caption = lines.join('; ')
  }

  // One row per entry, its group beside it (null outside a group); nothing said twice.
  return { title, image, entries, infoboxes: boxes.length }
}
