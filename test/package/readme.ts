import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { REPO_ROOT } from '../helpers/tmp'

/**
 * The user documentation, in reading order: README.md (what a user reads first), then the pages under
 * docs/ that it links (by name). The snippets, commands and tables the tests copy live in these files.
 */
export const DOC_FILES: readonly string[] = [
  'README.md',
  ...readdirSync(join(REPO_ROOT, 'docs'))
    .filter((name) => name.endsWith('.md'))
    .sort()
    .map((name) => `docs/${name}`),
]

/** The text of each documentation file, by its path in the repository. */
export const DOCS: ReadonlyMap<string, string> = new Map(
  DOC_FILES.map((file) => [file, readFileSync(join(REPO_ROOT, file), 'utf8')]),
)

/** Every fenced code block of the documentation, without its fences, with the file that holds it. */
function blocks(): { file: string; code: string }[] {
  return [...DOCS].flatMap(([file, text]) =>
    [...text.matchAll(/^```[a-z]*\n([\s\S]*?)^```$/gm)].map((match) => ({ file, code: match[1] ?? '' })),
  )
}

/**
 * The block whose first line names the file (`// agent.ts`): what a reader copies into it, from README.md
 * or a docs/ page. Two blocks naming one file would leave the reader guessing: that is an error too.
 */
export function readmeFile(name: string): string {
  const found = blocks().filter((block) => block.code.split('\n', 1)[0] === `// ${name}`)
  const where = found.map((block) => block.file).join(', ')
  if (found.length === 0) throw new Error(`no code block of ${DOC_FILES.join(', ')} starts with "// ${name}"`)
  if (found.length > 1) throw new Error(`more than one code block starts with "// ${name}" (${where})`)
  return found[0]!.code
}

/** The commands of the first shell block (README.md first, then docs/) that contains `text`, comments left out. */
export function readmeCommands(text: string): string[] {
  const found = blocks().find((block) => block.code.includes(text))
  if (found === undefined) throw new Error(`no code block of ${DOC_FILES.join(', ')} holds "${text}"`)
  return found.code
    .split('\n')
    .map((line) => line.replace(/\s+#.*$/, '').trim())
    .filter((line) => line !== '')
}

/** True when README.md or a docs/ page says `text` (a command in prose or in a block). */
export function readmeSays(text: string): boolean {
  return [...DOCS.values()].some((doc) => doc.includes(text))
}
