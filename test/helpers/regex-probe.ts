/**
 * Adversarial inputs for a regular expression, and a run of each expression over them (in a worker
 * of test/helpers/deadline.ts, so that one that backtracks for minutes is stopped, and named).
 */

/** A regular expression as written in a file: where, its source and flags. */
export interface RegexSource {
  at: string
  source: string
  flags: string
}

/** Characters every input is also built from: one of each class a pattern may take, and the usual separators. */
const COMMON = ['a', 'A', '0', ' ', '\t', '\n', '.', '-', '_', '/', '=', ':', '"', "'", '<', '>', '{', '$', '*', '%']
/** What may stand between a pattern's literal and what follows it (`Cookie: `, `value="`). */
const SEPARATORS = ['', ' ', ':', '=', ': ', '="', '":"']
/** Runs after a literal: one character, or a character and a separator (`a.a.a.`: words and dots). */
const RUNS = ['a', 'A', '0', '.', ' ', 'a.', 'a-', 'a ', 'a=', 'a;', 'a/', 'a"', "a'", 'a:', 'a<']

const fill = (unit: string, size: number) => unit.repeat(Math.ceil(size / unit.length)).slice(0, size)

/** Escapes and classes of a pattern, each as one space (a literal stops there). */
const ESCAPE_RE = /\\[pPu]\{[^}]*\}|\\u[0-9A-Fa-f]{4}|\\x[0-9A-Fa-f]{2}|\\./g

/** A character class (`[A-Za-z0-9+/]`): no literal of the pattern. */
const CLASS_RE = /\[(?:\\.|[^\]\\])*\]/g

/** The literal runs of a pattern (`eyJ`, `AccountKey=`, `<input`, `"name"`), longest first, at most 8. */
function literalsOf(source: string): string[] {
  const runs = source
    .replace(CLASS_RE, ' ')
    .replace(ESCAPE_RE, ' ')
    .split(/[\s^$.|?*+()[\]{}]+/)
  const found = [...new Set(runs.filter((run) => run.length >= 2))]
  return found.sort((a, b) => b.length - a.length).slice(0, 8)
}

/** The characters a pattern names, with the common ones. */
function alphabetOf(source: string): string[] {
  const named = source.replace(/\\[pPu]\{[^}]*\}|\\u[0-9A-Fa-f]{4}|\\x[0-9A-Fa-f]{2}/g, '').replace(/\\(.)/g, '$1')
  return [...new Set([...COMMON, ...named.replace(/[^\x21-\x7e]/g, '')])]
}

/**
 * Inputs of `size` characters built to make the pattern try hard and fail late, each ended by a
 * character few patterns take: each character of its alphabet repeated; each literal of it
 * repeated with each separator (`<input <input ...`); and each literal, a separator, then one long
 * run (`Cookie: a.a.a.a...`), where a nested or overlapping quantifier tries every split.
 */
export function adversarialInputs(source: string, size: number): string[] {
  const literals = literalsOf(source)
  const units = [
    ...alphabetOf(source).map((c) => fill(c, size - 1)),
    ...literals.flatMap((w) => SEPARATORS.map((s) => fill(`${w}${s}`, size - 1))),
    ...literals.flatMap((w) =>
      SEPARATORS.flatMap((s) => RUNS.map((r) => `${w}${s}${fill(r, size - 1 - w.length - s.length)}`)),
    ),
  ]
  return units.map((unit) => `${unit}\u0001`)
}

/** Runs every expression over its adversarial inputs (every match of a global one), saying which runs; the matches found. */
export function probeRegexes(list: RegexSource[], size: number, progress: (label: string) => void): number {
  let found = 0
  for (const { at, source, flags } of list) {
    progress(`${at} /${source}/${flags}`)
    const re = new RegExp(source, flags)
    for (const input of adversarialInputs(source, size)) {
      if (re.global || re.sticky)
        for (const _ of input.matchAll(re.global ? re : new RegExp(source, `${flags}g`))) found++
      else if (re.test(input)) found++
    }
  }
  return found
}
