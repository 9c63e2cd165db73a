import { join } from 'node:path'
import { SKILL_LIMITS } from '@modelcontextprotocol/server/ext/skills'
import { FILE_LIMITS, isReadFailure, readRegularFile } from '../../compiler/fs/files'
import { fileDigest } from '../../compiler/fs/tree'
import { MANIFEST } from '../../compiler/discover/skills'
import type { SkillModel } from '../../compiler/model'
import { EXPORT_MARKER, generateAgentSkill, type SourceFile } from '../../export/agent-skill'
import { readFrontmatter } from '../../export/frontmatter'
import { agentSkillNames } from '../../export/name'
import type { WatchedState } from '../watched-skills'

/** One file of a served skill: its path in the skill folder, its bytes and their digest. */
export interface ServedFile {
  path: string
  bytes: Buffer
  mimeType: string
  /** `sha256:<hex>`, as the verification record holds the digests of the skill's files. */
  digest: string
}

/** A skill as an Agent Skill over MCP: the folder `site-skills export --agent-skills` writes for it. */
export interface ServedSkill {
  id: string
  /** Its Agent Skills name: the folder name, and the last segment of its `skill://` path. */
  name: string
  /** SKILL.md's frontmatter, as a YAML parser reads it. */
  frontmatter: Record<string, unknown>
  /** Sorted by path; SKILL.md among them. */
  files: ServedFile[]
}

const MIME_TYPES: Record<string, string> = {
  md: 'text/markdown',
  json: 'application/json',
  js: 'text/javascript',
  mjs: 'text/javascript',
  cjs: 'text/javascript',
  ts: 'text/typescript',
  mts: 'text/typescript',
  cts: 'text/typescript',
  sh: 'text/x-shellscript',
}

const mimeTypeOf = (path: string) => MIME_TYPES[/\.([^./]+)$/.exec(path)?.[1] ?? ''] ?? 'text/plain'

/** Reads one file of a skill through the file guard (regular files within the limit only); undefined when it cannot. */
function readSource(realPath: string, limit: number): Buffer | undefined {
  const read = readRegularFile(realPath, limit)
  return isReadFailure(read) ? undefined : read
}

/**
 * The skill's own files the folder carries (under `assets/learnings/<id>/`, for its scripts): its
 * manifest, notes and tool files, read as bytes, so that their digests are those of its
 * verification record. Undefined when one cannot be read (it changed since it was compiled).
 */
function sourcesOf(model: SkillModel): SourceFile[] | undefined {
  const wanted = new Map<string, [string, number]>([[MANIFEST, [join(model.realDir, MANIFEST), FILE_LIMITS.manifest]]])
  for (const note of model.notes) wanted.set(note.path, [note.absPath, FILE_LIMITS.note])
  for (const tool of model.tools) wanted.set(tool.path.replace(/^\.\//, ''), [tool.absPath, FILE_LIMITS.tool])
  const sources: SourceFile[] = []
  for (const [path, [real, limit]] of [...wanted].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
    const content = readSource(real, limit)
    if (!content) return undefined
    sources.push({ path, content })
  }
  return sources
}

function servedSkill(model: SkillModel, name: string, version: string): ServedSkill | undefined {
  const sources = sourcesOf(model)
  if (!sources) return undefined
  const folder = generateAgentSkill(model, name, sources, version)
  const files = folder.files
    .filter((f) => f.path !== EXPORT_MARKER)
    .map((f) => {
      const bytes = Buffer.from(f.content)
      return { path: f.path, bytes, mimeType: mimeTypeOf(f.path), digest: fileDigest(bytes) }
    })
  const total = files.reduce((n, f) => n + f.bytes.length, 0)
  // A skill past the SEP's limits is not offered: hosts need not accept it.
  if (files.length > SKILL_LIMITS.files || total > SKILL_LIMITS.bytes) return undefined
  const skillMd = files.find((f) => f.path === 'SKILL.md')!.bytes.toString('utf8')
  const frontmatter = Object.fromEntries(readFrontmatter(skillMd).fields)
  return { id: model.id, name, frontmatter, files }
}

/**
 * The served skills of one compile as Agent Skills, in the order they are served. A skill whose
 * id cannot be an Agent Skills name, or that takes a name another has, is left out (as the export
 * refuses it).
 */
export function servedSkills(state: WatchedState, version: string): ServedSkill[] {
  const names = agentSkillNames(state.skills.map((s) => s.model.id))
  return state.skills.flatMap(({ model }) => {
    const name = names.get(model.id)
    const skill = name === undefined ? undefined : servedSkill(model, name, version)
    return skill ? [skill] : []
  })
}
