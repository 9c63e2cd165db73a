import type { SkillModel, ToolModel } from '../compiler/model'
import type { Frontmatter } from './frontmatter'
import { SOURCE_ROOT, generateScript } from './script'
import { compatibility, describeSkill, isInlined, noteFile, skillMd, toolsList } from './skill-md'
import { generateToolReference } from './tool-reference'

/** One file of an exported folder; `path` is relative to the folder, with forward slashes. */
interface ExportFile {
  path: string
  content: string | Uint8Array
  executable?: boolean
}

/** One Agent Skills folder: its name (the folder name) and its files, sorted by path. */
export interface AgentSkillFolder {
  name: string
  id: string
  files: ExportFile[]
}

/** A file of the skill itself, copied into `assets/learnings/<id>/`. */
export interface SourceFile {
  /** Relative to the skill folder, forward slashes. */
  path: string
  content: Uint8Array
}

/** The file that marks a folder as written by `site-skills export` (so a later export may replace it). */
export const EXPORT_MARKER = '.site-skills-export.json'

/** File stems for the tools' scripts and references: the name where it is a plain file name, else made one, unique. */
function toolStems(tools: readonly ToolModel[]): Map<ToolModel, string> {
  const stems = new Map<ToolModel, string>()
  const taken = new Set<string>()
  for (const tool of tools) {
    const base = tool.name.replace(/[^A-Za-z0-9_.-]+/g, '_').replace(/^[.-]+/, '_')
    let stem = base
    for (let n = 2; taken.has(stem.toLowerCase()); n++) stem = `${base}-${n}`
    taken.add(stem.toLowerCase())
    stems.set(tool, stem)
  }
  return stems
}

/**
 * The files of one skill's Agent Skills folder: SKILL.md, a script and a reference page per tool,
 * the notes SKILL.md links, the skill's own files under `assets/learnings/<id>/` (what the scripts
 * run), and the marker. Pure: the same skill, sources and version give the same bytes.
 */
export function generateAgentSkill(
  skill: SkillModel,
  name: string,
  sources: readonly SourceFile[],
  version: string,
): AgentSkillFolder {
  const stems = toolStems(skill.tools)
  const metadata = {
    'site-skills-id': skill.id,
    'site-skills-domains': skill.domains.join(' '),
    'site-skills-version': version,
  }
  const fm: Frontmatter = { name, description: describeSkill(skill), compatibility: compatibility(version), metadata }
  const { text, plan } = skillMd(skill, fm, stems, version)
  const files: ExportFile[] = [{ path: 'SKILL.md', content: text }]
  for (const tool of skill.tools) {
    const stem = stems.get(tool)!
    const script = `scripts/${stem}.sh`
    files.push({ path: script, content: generateScript(skill, tool, script, version), executable: true })
    files.push({ path: `references/tools/${stem}.md`, content: generateToolReference(skill, tool, script) })
  }
  if (plan.toolIndex)
    files.push({ path: 'references/tools.md', content: `# Tools\n\n${toolsList(skill, stems).join('\n')}\n` })
  for (const note of skill.notes)
    if (!isInlined(note, plan)) files.push({ path: noteFile(note), content: note.content })
  files.push({ path: `${SOURCE_ROOT}/package.json`, content: '{ "type": "module", "private": true }\n' })
  for (const source of sources)
    files.push({ path: `${SOURCE_ROOT}/${skill.id}/${source.path}`, content: source.content })
  const marker = { generator: 'unplugin-site-skills', format: 'agent-skills', version, id: skill.id, name }
  files.push({ path: EXPORT_MARKER, content: `${JSON.stringify(marker, null, 2)}\n` })
  files.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0))
  return { name, id: skill.id, files }
}
