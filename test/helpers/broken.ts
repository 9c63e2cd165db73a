import { writeTree } from './tmp'

/** Two skills, each broken in its own way; the manifests as written (a trailing comma is no JSON). */
export const BROKEN_SKILLS: Record<string, string> = {
  'learnings/alpha/manifest.json': [
    '{',
    '  "id": "alpha",',
    '  "name": "Alpha",',
    '  "domains": ["alpha.example.com"],',
    '  "notes": [],',
    '  "nodeTools": {},',
    '}\n',
  ].join('\n'),
  'learnings/beta/manifest.json': '{\n  "id": "beta",\n  "name": 12,\n  "domains": ["beta.example.com"]\n}\n',
}

/** What each broken skill reports: its header as bundlers print it, and the lines of its own code frame. */
export const BROKEN_DIAGNOSTICS = [
  {
    file: 'learnings/alpha/manifest.json',
    line: 6,
    column: 18,
    head: 'learnings/alpha/manifest.json:6:18  error manifest-parse  invalid JSON: trailing comma',
    frame: ['> 6 |   "nodeTools": {},', `  |${' '.repeat(18)}^`],
    hint: 'hint: manifest.json is strict JSON: no comments, no trailing commas, double-quoted keys.',
  },
  {
    file: 'learnings/beta/manifest.json',
    line: 3,
    column: 3,
    head: 'learnings/beta/manifest.json:3:3  error name-invalid  name must be a non-empty string',
    frame: ['> 3 |   "name": 12,', `  |${' '.repeat(3)}^`],
    hint: 'hint: Give the site a human-readable "name".',
  },
] as const

/** Writes a project with the broken skills and an entry that imports `virtual:site-skills`. */
export async function writeBrokenProject(dir: string): Promise<void> {
  await writeTree(dir, {
    ...BROKEN_SKILLS,
    'main.js': "import { skills } from 'virtual:site-skills'\nconsole.log(skills.length)\n",
    'index.html': '<!doctype html><title>broken</title><script type="module" src="/main.js"></script>\n',
  })
}

/**
 * Each diagnostic's part of a build's output: from its header to the next one. Fails when a
 * header is missing or out of order.
 */
export function diagnosticSections(output: string, heads: readonly string[]): string[] {
  const starts = heads.map((head) => output.indexOf(head))
  const misplaced = starts.some((at, i) => at < 0 || (i > 0 && at < starts[i - 1]!))
  if (misplaced) throw new Error(`diagnostics missing or out of order in:\n${output}`)
  return starts.map((at, i) => output.slice(at, starts[i + 1] ?? output.length))
}
