import type { Summary } from './stats'

export type Unit = 'ms' | 'bytes' | 'count' | 'kb-rss'

/** One measured value with its label, e.g. `{ label: 'table', unit: 'ms', value }`. */
interface Measure {
  label: string
  unit: Unit
  value: Summary
}

/** One line of the table: a subject against a baseline measured in the same run. */
export interface Figure {
  bench: string
  name: string
  subject?: Measure
  baseline?: Measure
  /** Per-run ratio, in the direction `ratioText` says (e.g. "x faster" or "x the baseline"). */
  ratio?: Summary
  ratioText?: string
  goal?: { text: string; met: boolean }
  /** Short extra facts shown under the line (breakdowns, counts). */
  notes?: string[]
  /** Why the figure could not be measured. */
  error?: string
}

/** The line of an error that says what went wrong (Vite puts a summary line first). */
export function errorSummary(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error)
  const lines = message.split('\n').map((l) => l.trim())
  return lines.find((l) => /^\w*Error: /.test(l)) ?? lines[0] ?? message
}

const group = (n: number, digits = 0) =>
  n.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits })

function formatTime(ms: number): string {
  if (ms < 0.001) return `${group(ms * 1e6, ms * 1e6 < 10 ? 1 : 0)} ns`
  if (ms < 1) return `${group(ms * 1e3, ms * 1e3 < 10 ? 2 : 1)} µs`
  if (ms < 1000) return `${group(ms, ms < 10 ? 2 : 1)} ms`
  return `${group(ms / 1000, 2)} s`
}

function formatBytes(bytes: number): string {
  if (bytes < 100_000) return `${group(bytes)} B`
  if (bytes < 100 * 1024 * 1024) return `${group(bytes / 1024, 1)} KiB`
  return `${group(bytes / 1024 / 1024, 1)} MiB`
}

export function formatValue(value: number, unit: Unit): string {
  if (!Number.isFinite(value)) return 'n/a'
  switch (unit) {
    case 'ms':
      return formatTime(value)
    case 'bytes':
      return formatBytes(value)
    case 'kb-rss':
      return `${group(value / 1024, 0)} MiB`
    default:
      return group(value, Number.isInteger(value) ? 0 : 1)
  }
}

export function formatRatio(r: number): string {
  if (!Number.isFinite(r)) return 'n/a'
  if (r >= 100) return `${group(r)}x`
  if (r >= 10) return `${group(r, 1)}x`
  return `${group(r, 2)}x`
}

function measureCell(m?: Measure): string {
  return m ? `${m.label} ${formatValue(m.value.median, m.unit)}` : ''
}

function row(f: Figure): string[] {
  if (f.error) return [f.name, `FAILED: ${f.error}`, '', '', '', '']
  const ratio = f.ratio ? `${formatRatio(f.ratio.median)}${f.ratioText ? ` ${f.ratioText}` : ''}` : ''
  const range =
    f.ratio && f.ratio.runs > 1
      ? `${formatRatio(f.ratio.min)} – ${formatRatio(f.ratio.max)} (n=${f.ratio.runs})`
      : f.ratio
        ? `(n=${f.ratio.runs})`
        : ''
  const goal = f.goal ? `${f.goal.met ? 'MET' : 'MISSED'}: ${f.goal.text}` : ''
  return [f.name, measureCell(f.subject), measureCell(f.baseline), ratio, range, goal]
}

const HEADER = ['Figure', 'Subject (median)', 'Baseline (median)', 'Ratio (median)', 'Ratio min – max', 'Goal']

/** The whole table as text: one section per benchmark, notes indented under their figure. */
export function renderTable(figures: readonly Figure[]): string {
  const rows = figures.map(row)
  const widths = HEADER.map((h, c) =>
    Math.max(h.length, ...rows.map((r) => (c === 1 && r[1]!.startsWith('FAILED') ? 0 : r[c]!.length))),
  )
  const line = (cells: string[]) =>
    cells
      .map((cell, c) => cell.padEnd(widths[c]!))
      .join(' | ')
      .trimEnd()
  const rule = widths.map((w) => '-'.repeat(w)).join('-+-')
  const out = [line(HEADER), rule]
  let bench = ''
  figures.forEach((f, i) => {
    if (f.bench !== bench) {
      bench = f.bench
      out.push(`[${bench}]`)
    }
    const cells = rows[i]!
    out.push(f.error ? `${cells[0]!.padEnd(widths[0]!)} | ${cells[1]}` : line(cells))
    for (const note of f.notes ?? []) out.push(`    ${note}`)
  })
  return out.join('\n')
}
