/**
 * The YAML frontmatter of an exported SKILL.md: written as a few `key: "string"` lines and one
 * `metadata:` map, every value a double-quoted scalar (JSON's string syntax, which YAML reads the
 * same), so that no description can turn into YAML syntax. `readFrontmatter` reads back exactly
 * this shape for the export's own checks; hosts use their YAML parser.
 */

/** What an exported SKILL.md declares. */
export interface Frontmatter {
  name: string
  description: string
  compatibility?: string
  metadata?: Record<string, string>
}

/** Characters YAML treats as line breaks or refuses raw in a scalar: written as escapes. */
const YAML_RAW_RE = /[\u0080-\u009f\u2028\u2029\ufeff]/g

/** A string as a YAML double-quoted scalar. */
function yamlString(text: string): string {
  return JSON.stringify(text).replace(YAML_RAW_RE, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`)
}

/** Plain scalars YAML reads as strings: a letter first, then a-z, 0-9, hyphens; not a YAML 1.1 boolean or null. */
const PLAIN_RE = /^[a-z][a-z0-9-]*$/
const YAML_WORDS = new Set(['true', 'false', 'null', 'yes', 'no', 'on', 'off', 'y', 'n'])

/** A name as the specification's examples write it (`name: pdf-processing`) where that is safe, else quoted. */
function yamlName(name: string): string {
  return PLAIN_RE.test(name) && !YAML_WORDS.has(name) ? name : yamlString(name)
}

export function renderFrontmatter(fm: Frontmatter): string {
  const lines = ['---', `name: ${yamlName(fm.name)}`, `description: ${yamlString(fm.description)}`]
  if (fm.compatibility !== undefined) lines.push(`compatibility: ${yamlString(fm.compatibility)}`)
  if (fm.metadata) {
    lines.push('metadata:')
    for (const [key, value] of Object.entries(fm.metadata)) lines.push(`  ${yamlString(key)}: ${yamlString(value)}`)
  }
  lines.push('---', '')
  return lines.join('\n')
}

/** A SKILL.md split: its frontmatter fields (raw), the body, and the body's first line number. */
export interface SplitSkillMd {
  fields: Map<string, unknown>
  body: string
  bodyLine: number
  /** Lines the reader could not read, as `line N: text`. */
  problems: string[]
}

const FIELD_RE = /^("(?:[^"\\]|\\.)*"|[A-Za-z][\w-]*):(?: (.*))?$/
const ENTRY_RE = /^ {2}("(?:[^"\\]|\\.)*"): ("(?:[^"\\]|\\.)*")$/

function scalar(text: string): unknown {
  if (PLAIN_RE.test(text) && !YAML_WORDS.has(text)) return text
  try {
    return JSON.parse(text)
  } catch {
    return undefined
  }
}

/** Reads the frontmatter shape renderFrontmatter writes; anything else is a problem. */
export function readFrontmatter(text: string): SplitSkillMd {
  const lines = text.split('\n')
  const fields = new Map<string, unknown>()
  const problems: string[] = []
  if (lines[0] !== '---') return { fields, body: text, bodyLine: 1, problems: ['line 1: must be "---"'] }
  let n = 1
  let map: Record<string, string> | undefined
  for (; n < lines.length && lines[n] !== '---'; n++) {
    const line = lines[n]!
    const entry = map && ENTRY_RE.exec(line)
    if (map && entry) {
      map[scalar(entry[1]!) as string] = scalar(entry[2]!) as string
      continue
    }
    const field = FIELD_RE.exec(line)
    const key = field && (field[1]!.startsWith('"') ? scalar(field[1]!) : field[1])
    if (typeof key !== 'string') {
      problems.push(`line ${n + 1}: ${line}`)
      continue
    }
    map = field![2] === undefined ? {} : undefined
    const value = field![2] === undefined ? map : scalar(field![2])
    if (value === undefined) problems.push(`line ${n + 1}: ${line}`)
    else fields.set(key, value)
  }
  if (n >= lines.length) problems.push('the frontmatter has no closing "---"')
  return { fields, body: lines.slice(n + 1).join('\n'), bodyLine: n + 2, problems }
}
