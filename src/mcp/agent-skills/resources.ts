import {
  ProtocolError,
  ProtocolErrorCode,
  type ReadResourceResult,
  type Resource,
  type Server,
  type StandardSchemaV1,
} from '@modelcontextprotocol/server'
import {
  DIRECTORY_MIME_TYPE,
  type DirectoryResource,
  RESOURCES_DIRECTORY_READ_METHOD,
  SKILLS_EXTENSION_ID,
  SKILLS_GET_METHOD,
  SKILLS_LIST_METHOD,
  type Skill,
} from '@modelcontextprotocol/server/ext/skills'
import { packageVersion } from '../../own/version'
import { pageOf } from '../page'
import type { WatchedSkills, WatchedState } from '../watched-skills'
import { type ServedFile, type ServedSkill, servedSkills } from './folders'

/**
 * The skills as Agent Skills over MCP (SEP-2640, the `io.modelcontextprotocol/skills` extension):
 * each served skill is the folder `site-skills export --agent-skills` writes for it, under
 * `skill://<name>/` (SKILL.md, its scripts and references, and the skill's own manifest, notes and
 * tools under `assets/learnings/<id>/`), listed by `skills/list` with the digest of every file.
 */
export interface AgentSkills {
  /** Whether a URI is a `skill://` one (read here, not as a note). */
  owns: (uri: string) => boolean
  /** What `resources/list` shows of them: the SKILL.md of each of these skills (by id) that is served. */
  listResources: (ids: readonly string[]) => Promise<Resource[]>
  /** A file of a skill; undefined when there is none at `uri`. */
  read: (uri: string) => Promise<ReadResourceResult | undefined>
  /** Declares the extension on a server and answers its methods there (before the server connects). */
  attach: (server: Server) => void
}

const SCHEME = 'skill://'
/** How long a client may reuse an entry (2026-07-28 `ttlMs`): skills change only on disk. */
const CACHE = { ttlMs: 5000, cacheScope: 'private' as const }

const fileUri = (skill: ServedSkill, path: string) =>
  `${SCHEME}${skill.name}/${path.split('/').map(encodeURIComponent).join('/')}`

function entryOf(skill: ServedSkill): Skill {
  return {
    uri: fileUri(skill, 'SKILL.md'),
    frontmatter: skill.frontmatter as Skill['frontmatter'],
    resources: skill.files.map((f) => ({ uri: fileUri(skill, f.path), digest: f.digest, size: f.bytes.length })),
  }
}

/** The params of a custom method, checked without a schema library: an object whose `uri` (when asked) is a string. */
function paramsOf(needsUri: boolean): StandardSchemaV1<unknown, { uri: string; cursor?: string }> {
  return {
    '~standard': {
      version: 1,
      vendor: 'site-skills',
      validate(value) {
        const params = (value ?? {}) as { uri?: unknown; cursor?: unknown }
        if (typeof params !== 'object' || Array.isArray(params))
          return { issues: [{ message: 'params must be an object' }] }
        if (needsUri && typeof params.uri !== 'string') return { issues: [{ message: '"uri" must be a string' }] }
        if (params.cursor !== undefined && typeof params.cursor !== 'string')
          return { issues: [{ message: '"cursor" must be a string' }] }
        return { value: params as { uri: string; cursor?: string } }
      },
    },
  }
}

/** The direct children of a folder of a skill (`prefix`: '' for its root, else `dir/`), folders first by name. */
function childrenOf(skill: ServedSkill, prefix: string): DirectoryResource[] {
  const folders = new Set<string>()
  const files: ServedFile[] = []
  for (const file of skill.files) {
    if (!file.path.startsWith(prefix)) continue
    const rest = file.path.slice(prefix.length)
    const slash = rest.indexOf('/')
    if (slash < 0) files.push(file)
    else folders.add(rest.slice(0, slash))
  }
  const dirs = [...folders].sort().map((name) => ({
    uri: fileUri(skill, `${prefix}${name}`),
    name,
    mimeType: DIRECTORY_MIME_TYPE,
  }))
  const leaves = files.map((f) => ({
    uri: fileUri(skill, f.path),
    name: f.path.slice(prefix.length),
    mimeType: f.mimeType,
    size: f.bytes.length,
  }))
  return [...dirs, ...leaves]
}

/** A folder of a skill named by a URI: the skill and the folder's prefix; undefined when the URI names none. */
function folderAt(served: readonly ServedSkill[], uri: string): { skill: ServedSkill; prefix: string } | undefined {
  if (!uri.startsWith(SCHEME)) return undefined
  const [name, ...rest] = uri.slice(SCHEME.length).replace(/\/$/, '').split('/')
  const skill = served.find((s) => s.name === name)
  if (!skill) return undefined
  const prefix = rest.length ? `${rest.map(decodeURIComponent).join('/')}/` : ''
  return prefix === '' || skill.files.some((f) => f.path.startsWith(prefix)) ? { skill, prefix } : undefined
}

export function createAgentSkills(skills: WatchedSkills): AgentSkills {
  const made = new WeakMap<WatchedState, ServedSkill[]>()
  const version = packageVersion()
  const current = async () => {
    const state = await skills.current()
    let served = made.get(state)
    if (!served) {
      served = servedSkills(state, version)
      made.set(state, served)
    }
    return served
  }
  const fileAt = async (uri: string) => {
    for (const skill of await current()) {
      const file = skill.files.find((f) => fileUri(skill, f.path) === uri)
      if (file) return file
    }
    return undefined
  }

  function attach(server: Server): void {
    server.registerCapabilities({ extensions: { [SKILLS_EXTENSION_ID]: { directoryRead: true } } })
    server.setRequestHandler(SKILLS_LIST_METHOD, { params: paramsOf(false) }, async (params) => {
      const { page, nextCursor } = pageOf((await current()).map(entryOf), params.cursor)
      return { skills: page, ...(nextCursor ? { nextCursor } : {}), ...CACHE }
    })
    server.setRequestHandler(SKILLS_GET_METHOD, { params: paramsOf(true) }, async ({ uri }) => {
      const skill = (await current()).find((s) => fileUri(s, 'SKILL.md') === uri)
      if (!skill) throw new ProtocolError(ProtocolErrorCode.InvalidParams, `no skill has its SKILL.md at ${uri}`)
      return { skill: entryOf(skill), ...CACHE }
    })
    server.setRequestHandler(RESOURCES_DIRECTORY_READ_METHOD, { params: paramsOf(true) }, async ({ uri, cursor }) => {
      const folder = folderAt(await current(), uri)
      if (!folder) throw new ProtocolError(ProtocolErrorCode.InvalidParams, `${uri} is not a folder of a skill`)
      const { page, nextCursor } = pageOf(childrenOf(folder.skill, folder.prefix), cursor)
      return { resources: page, ...(nextCursor ? { nextCursor } : {}), ...CACHE }
    })
  }

  return {
    owns: (uri) => uri.startsWith(SCHEME),
    async listResources(ids) {
      const wanted = new Set(ids)
      return (await current())
        .filter((skill) => wanted.has(skill.id))
        .map((skill) => ({
          uri: fileUri(skill, 'SKILL.md'),
          name: skill.name,
          description: String(skill.frontmatter.description),
          mimeType: 'text/markdown',
        }))
    },
    async read(uri) {
      const file = await fileAt(uri)
      if (!file) return undefined
      return { contents: [{ uri, mimeType: file.mimeType, text: file.bytes.toString('utf8') }] }
    },
    attach,
  }
}
