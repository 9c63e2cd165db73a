import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { REPO_ROOT } from '../helpers/tmp'

const README = readFileSync(join(REPO_ROOT, 'README.md'), 'utf8')

/** Every fenced code block of README.md, without its fences. */
function blocks(): string[] {
  return [...README.matchAll(/^```[a-z]*\n([\s\S]*?)^```$/gm)].map((match) => match[1] ?? '')
}

/** The README block whose first line names the file (`// agent.ts`): what a reader copies into it. */
export function readmeFile(name: string): string {
  const found = blocks().find((block) => block.split('\n', 1)[0] === `// ${name}`)
  if (found === undefined) throw new Error(`README.md has no code block starting with "// ${name}"`)
  return found
}

/** The commands of the README shell block that contains `text`, comments left out. */
export function readmeCommands(text: string): string[] {
  const found = blocks().find((block) => block.includes(text))
  if (found === undefined) throw new Error(`README.md has no code block with "${text}"`)
  return found
    .split('\n')
    .map((line) => line.replace(/\s+#.*$/, '').trim())
    .filter((line) => line !== '')
}

/** True when README.md says `text` (a command in prose or in a block). */
export function readmeSays(text: string): boolean {
  return README.includes(text)
}
