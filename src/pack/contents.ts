/**
 * What `site-skills pack` writes, as pure functions of the skills and their files: the same input
 * gives the same bytes (sorted keys and paths, no dates, no absolute paths).
 */
import { createHash } from 'node:crypto'
import type { PackedFile } from './skill-files'

/** The folder of skill folders inside a pack (its package.json's `siteSkills.root`). */
const PACK_ROOT = 'learnings'
/** The file of a pack that lists every packed file with its sha256. */
export const DIGESTS_FILE = 'digests.json'

/** One skill going in a pack. */
export interface PackSkill {
  id: string
  name: string
  domains: readonly string[]
  tools: readonly string[]
  files: readonly PackedFile[]
}

/** The files of a pack, path (relative to the pack's folder) to bytes, in path order. */
export type PackFiles = ReadonlyMap<string, Buffer>

const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex')
const json = (value: unknown) => Buffer.from(`${JSON.stringify(value, null, 2)}\n`)
const byPath = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0)

/** One line saying what the pack is for: its sites and their domains. */
function describe(skills: readonly PackSkill[]): string {
  const sites = skills.map((s) => `${s.name} (${s.domains.join(', ')})`)
  return `Site skills for ${sites.join('; ')}`
}

function readme(name: string, skills: readonly PackSkill[]): Buffer {
  const rows = skills.map((s) => `| \`${s.id}\` | ${s.name} | ${s.domains.join(', ')} | ${s.tools.join(', ') || '-'} |`)
  const text = [
    `# ${name}`,
    '',
    `${describe(skills)}, packed by \`site-skills pack\` ` +
      `([unplugin-site-skills](https://www.npmjs.com/package/unplugin-site-skills)).`,
    '',
    "Install it, then name it as a root: `siteSkills({ roots: ['learnings', " +
      `'${name}'] })\` or \`site-skills validate --root ${name}\`.`,
    `\`${DIGESTS_FILE}\` holds the sha256 of every file; a skill's \`verification.json\`, when present, says what ` +
      `was tested and when.`,
    '',
    '| skill | name | domains | tools |',
    '| --- | --- | --- | --- |',
    ...rows,
    '',
  ]
  return Buffer.from(text.join('\n'))
}

/**
 * Every file of a pack of `skills` named `name` at `version`: the skills' files under
 * `learnings/<id>/` as they are (a verification record's digests stay valid), `digests.json`,
 * a README and a package.json whose `siteSkills.root` makes it a root (SPEC 9) and whose `files`
 * lists exactly what npm packs.
 */
export function packFiles(name: string, version: string, skills: readonly PackSkill[]): PackFiles {
  const out = new Map<string, Buffer>()
  for (const skill of [...skills].sort((a, b) => byPath(a.id, b.id)))
    for (const file of skill.files) out.set(`${PACK_ROOT}/${skill.id}/${file.rel}`, file.bytes)
  const digests = Object.fromEntries([...out.keys()].sort(byPath).map((path) => [path, sha256(out.get(path)!)]))
  out.set(DIGESTS_FILE, json({ algorithm: 'sha256', files: digests }))
  out.set('README.md', readme(name, skills))
  const files = [...out.keys()].sort(byPath)
  const manifest = {
    name,
    version,
    description: describe(skills),
    keywords: ['site-skills', ...skills.map((s) => s.id)],
    // Node tools are ES modules (`export async function`), whatever their extension.
    type: 'module',
    files,
    siteSkills: { root: PACK_ROOT },
  }
  out.set('package.json', json(manifest))
  return new Map([...out].sort(([a], [b]) => byPath(a, b)))
}
