import { posix } from 'node:path'
import { COMPATIBILITY_MAX, DESCRIPTION_MAX, SKILL_MD_LINES } from './limits'
import { readFrontmatter } from './frontmatter'
import { nameProblems } from './name'
import { lengthOf } from './clip-text'

/** A rule an exported folder breaks: the file (relative to the folder), a line, and what is wrong. */
export interface ExportProblem {
  file: string
  line: number
  message: string
}

/** The frontmatter fields of the Agent Skills specification. */
const FIELDS = new Set(['name', 'description', 'license', 'compatibility', 'metadata', 'allowed-tools'])
const SCHEME_RE = /^[a-z][a-z0-9+.-]*:/i

const textOf = (content: string | Uint8Array | undefined) =>
  content === undefined ? undefined : typeof content === 'string' ? content : new TextDecoder().decode(content)

/** Inline link targets of Markdown outside code (fences and spans), with their line numbers. */
function markdownLinks(markdown: string, firstLine = 1): { target: string; line: number }[] {
  const links: { target: string; line: number }[] = []
  let fenced = false
  markdown.split('\n').forEach((line, i) => {
    if (/^\s*(```|~~~)/.test(line)) fenced = !fenced
    if (fenced) return
    const prose = line.replace(/(`+)[\s\S]*?\1/g, '')
    for (const m of prose.matchAll(/\]\(([^)\s]+)\)/g)) links.push({ target: m[1]!, line: firstLine + i })
  })
  return links
}

/** Where a relative link of a file at the folder's root leads, or a problem. */
function resolveLink(target: string): { path?: string; problem?: string } {
  if (SCHEME_RE.test(target) || target.startsWith('#')) return {}
  const bare = target.split('#')[0]!
  if (bare.startsWith('/')) return { problem: `links to the absolute path ${bare}` }
  let path: string
  try {
    path = posix.normalize(bare.split('/').map(decodeURIComponent).join('/'))
  } catch {
    return { problem: `link ${target} is not a valid path` }
  }
  if (path.startsWith('../') || path === '..') return { problem: `link ${target} leads out of the skill folder` }
  return { path }
}

function findFieldsProblem(fields: Map<string, unknown>, folder: string, add: (line: number, m: string) => void): void {
  for (const key of fields.keys())
    if (!FIELDS.has(key)) add(2, `frontmatter field ${JSON.stringify(key)} is not in the specification`)
  const name = fields.get('name')
  if (typeof name !== 'string') add(2, 'frontmatter needs name, a string')
  else {
    for (const problem of nameProblems(name)) add(2, `name ${JSON.stringify(name)} ${problem}`)
    if (name !== folder) add(2, `name ${JSON.stringify(name)} must be the folder name ${JSON.stringify(folder)}`)
  }
  const description = fields.get('description')
  if (typeof description !== 'string' || !description.trim())
    add(3, 'frontmatter needs description, a non-empty string')
  else if (lengthOf(description) > DESCRIPTION_MAX)
    add(3, `description has ${lengthOf(description)} characters, over ${DESCRIPTION_MAX}`)
  const compatibility = fields.get('compatibility')
  if (compatibility !== undefined && (typeof compatibility !== 'string' || lengthOf(compatibility) > COMPATIBILITY_MAX))
    add(4, `compatibility must be a string of 1 to ${COMPATIBILITY_MAX} characters`)
  const metadata = fields.get('metadata')
  if (metadata !== undefined && Object.values(metadata as object).some((v) => typeof v !== 'string'))
    add(5, 'metadata must map strings to strings')
}

/**
 * The export's own rules, checked on a folder's files (path -> content): the frontmatter of the
 * Agent Skills specification (name rules and the folder name, description and compatibility
 * limits, known fields), SKILL.md under 500 lines, every relative link of SKILL.md and of the
 * files it links resolving inside the folder, and every script named in SKILL.md or a file it links.
 */
export function checkAgentSkill(folder: string, files: ReadonlyMap<string, string | Uint8Array>): ExportProblem[] {
  const problems: ExportProblem[] = []
  const skillMd = textOf(files.get('SKILL.md'))
  if (skillMd === undefined) return [{ file: 'SKILL.md', line: 1, message: 'the folder has no SKILL.md' }]
  const split = readFrontmatter(skillMd)
  for (const problem of split.problems) problems.push({ file: 'SKILL.md', line: 1, message: `frontmatter: ${problem}` })
  findFieldsProblem(split.fields, folder, (line, message) => problems.push({ file: 'SKILL.md', line, message }))
  const lines = skillMd.split('\n').length - (skillMd.endsWith('\n') ? 1 : 0)
  if (lines >= SKILL_MD_LINES)
    problems.push({
      file: 'SKILL.md',
      line: lines,
      message: `SKILL.md has ${lines} lines, not under ${SKILL_MD_LINES}`,
    })
  const read = new Set<string>(['SKILL.md'])
  const queue: { file: string; text: string; first: number }[] = [
    { file: 'SKILL.md', text: split.body, first: split.bodyLine },
  ]
  for (let item = queue.shift(); item; item = queue.shift()) {
    for (const { target, line } of markdownLinks(item.text, item.first)) {
      const { path, problem } = resolveLink(target)
      if (problem) problems.push({ file: item.file, line, message: problem })
      if (!path) continue
      const text = textOf(files.get(path))
      if (text === undefined) problems.push({ file: item.file, line, message: `link ${target}: no file ${path}` })
      else if (!read.has(path) && path.endsWith('.md')) queue.push({ file: path, text, first: 1 })
      read.add(path)
    }
  }
  const named = [...read].map((file) => (file === 'SKILL.md' ? skillMd : textOf(files.get(file))!)).join('\n')
  for (const file of files.keys())
    if (file.startsWith('scripts/') && !named.includes(file))
      problems.push({ file, line: 1, message: `${file} is named neither in SKILL.md nor in a file it links` })
  return problems
}
