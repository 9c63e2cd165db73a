/**
 * Google Sheets helpers that need no browser: export URLs and A1 notation.
 *
 * ctx used: nothing; both tools are pure functions of their args.
 */

import { buildDocsUrl, parseDocsUrl, present } from '../docs/functions.js'

const FORMATS = ['csv', 'tsv', 'xlsx', 'ods', 'pdf']

/** 1 -> "A", 27 -> "AA". */
function columnLetters(column) {
  let n = column
  let letters = ''
  while (n > 0) {
    const rem = (n - 1) % 26
    letters = String.fromCharCode(65 + rem) + letters
    n = Math.floor((n - 1) / 26)
  }
  return letters
}

/** "A" -> 1, "AA" -> 27. */
function columnNumber(letters) {
  let n = 0
  for (const ch of letters.toUpperCase()) n = n * 26 + (ch.charCodeAt(0) - 64)
  return n
}

/** Sheet names with spaces or punctuation are quoted in A1 notation: 'My sheet'!A1. */
function quoteSheet(name) {
  return /^[A-Za-z_][A-Za-z0-9_]*$/.test(name) ? name : `'${name.replace(/'/g, "''")}'`
}

const CELL_RE = /^\$?([A-Za-z]{1,3})?\$?(\d+)?$/

function parseCell(text) {
  const m = CELL_RE.exec(text)
  if (!m || (!m[1] && !m[2])) throw new Error(`not a cell reference: ${JSON.stringify(text)}`)
  return { column: m[1] ? columnNumber(m[1]) : null, row: m[2] ? Number(m[2]) : null }
}

/** Node tool sheets_export_url: a download URL for a spreadsheet or one of its sheets. */
export async function sheetsExportUrl(_ctx, args) {
  args = present(args)
  let id = args.id
  let gid = args.gid
  if (args.url) {
    const parsed = parseDocsUrl(args.url)
    if (!parsed.valid || parsed.kind !== 'spreadsheet' || parsed.published) throw new Error('url must be the URL of a spreadsheet (docs.google.com/spreadsheets/d/<id>/...)')
    id = parsed.id
    if (gid === undefined && parsed.gid !== null) gid = parsed.gid
  }
  const format = args.format ?? 'csv'
  if (!FORMATS.includes(format)) throw new Error(`format must be one of ${FORMATS.join(', ')}`)
  if ((format === 'csv' || format === 'tsv') && gid === undefined) gid = 0
  let url = buildDocsUrl({ id, kind: 'spreadsheet', format, gid })
  if (args.range) {
    if (!/^[A-Za-z]{0,3}\d*(?::[A-Za-z]{0,3}\d*)?$/.test(args.range)) throw new Error('range must be A1 notation without a sheet name, e.g. "A1:D20"')
    url += `&range=${encodeURIComponent(args.range)}`
  }
  return { url, id, gid: gid ?? null, format }
}

/**
 * Node tool sheets_a1: converts between A1 notation and row/column numbers (1-based).
 * Give `a1` to parse it, or `row` and `column` (and optionally `endRow`, `endColumn`) to build it.
 */
export async function sheetsA1(_ctx, args) {
  args = present(args)
  if (args.a1) {
    const text = String(args.a1).trim()
    const bang = text.lastIndexOf('!')
    const sheet = bang >= 0 ? text.slice(0, bang).replace(/^'(.*)'$/, '$1').replace(/''/g, "'") : null
    const [from, to] = (bang >= 0 ? text.slice(bang + 1) : text).split(':')
    const start = parseCell(from)
    const end = to === undefined ? start : parseCell(to)
    return {
      a1: text,
      sheet,
      start: { ...start, columnLetter: start.column ? columnLetters(start.column) : null },
      end: { ...end, columnLetter: end.column ? columnLetters(end.column) : null },
      rows: start.row && end.row ? end.row - start.row + 1 : null,
      columns: start.column && end.column ? end.column - start.column + 1 : null,
    }
  }
  const { row, column } = args
  if (!Number.isInteger(row) || !Number.isInteger(column) || row < 1 || column < 1) {
    throw new Error('give a1, or row and column as positive integers')
  }
  const endRow = args.endRow ?? row
  const endColumn = args.endColumn ?? column
  if (!Number.isInteger(endRow) || !Number.isInteger(endColumn) || endRow < row || endColumn < column) {
    throw new Error('endRow and endColumn must be integers not smaller than row and column')
  }
  const first = `${columnLetters(column)}${row}`
  const last = `${columnLetters(endColumn)}${endRow}`
  const range = first === last ? first : `${first}:${last}`
  const a1 = args.sheet ? `${quoteSheet(String(args.sheet))}!${range}` : range
  return {
    a1,
    sheet: args.sheet ?? null,
    start: { row, column, columnLetter: columnLetters(column) },
    end: { row: endRow, column: endColumn, columnLetter: columnLetters(endColumn) },
    rows: endRow - row + 1,
    columns: endColumn - column + 1,
  }
}
