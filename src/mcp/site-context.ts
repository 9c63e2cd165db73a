import type { GetPromptResult, Prompt, ReadResourceResult, Resource, ResourceLink } from '@modelcontextprotocol/server'
import type { LearnedContext, SkillMeta } from '../../runtime/index'
import { SiteToolError } from '../../runtime/index'
import { CURSOR_ARG } from '../../runtime/internal'
import { VERIFICATION_FILE, readRecordFile } from '../compiler/verification'
import { recordIsCurrent } from '../verification/stale'
import type { AgentSkills } from './agent-skills/resources'
import type { WatchedSkills } from './watched-skills'
import { TAB_PROPERTY } from '../listing/site-tool'

/** Notes as resources, the problems of the skills, and the prompt with the learned context. */
export interface SiteContext {
  /**
   * The notes of the skills that match `url` (`page` mode), or of every skill (`url` null: the
   * list then does not depend on a client's tab), and the problems.
   */
  listResources: (url: string | null | undefined, every: boolean) => Promise<Resource[]>
  readResource: (uri: string) => Promise<ReadResourceResult>
  prompts: Prompt[]
  /** The learned context of a tab's URL (`undefined`: no tab). */
  getPrompt: (name: string, url: string | undefined) => Promise<GetPromptResult>
}

export interface ContextOptions {
  skills: WatchedSkills
  /** The skills as Agent Skills (`skill://`): the SKILL.md of each listed skill follows its notes. */
  agentSkills?: Pick<AgentSkills, 'listResources'>
}

const SCHEME = 'site-skills://'
/** What is wrong with the skills now: errors of the last compile and the skills kept at their last good version. */
const PROBLEMS_URI = `${SCHEME}problems`
const CONTEXT_PROMPT = 'site_context'

/** `site-skills://<id>/notes/<file>`: a note's path below `notes/` (or its whole path in the release-line layout). */
function noteUri(siteId: string, path: string): string {
  const file = path.startsWith('notes/') ? path.slice('notes/'.length) : path
  return `${SCHEME}${encodeURIComponent(siteId)}/notes/${file.split('/').map(encodeURIComponent).join('/')}`
}

/** Each tool with its own arguments (the runtime's `cursor` of paged results goes without saying). */
function toolLines(context: LearnedContext): string[] {
  return context.toolDefinitions.mcp.map((def) => {
    const ref = context.toolDefinitions.names[def.name]
    const own = context.tools.find((t) => t.siteId === ref?.siteId && t.toolName === ref?.tool)?.args ?? {}
    const args = Object.keys((def.inputSchema.properties as object | undefined) ?? {})
    const shown = args.filter((a) => a !== CURSOR_ARG || Object.hasOwn(own, a))
    return `- \`${def.name}\`(${shown.join(', ')}): ${def.description}`
  })
}

/** The learned context as one text: which skill, its notes, its tools. */
function contextText(url: string | undefined, context: LearnedContext | undefined): string {
  if (!url || !context?.exists) return `No site skill matches ${url ? `the active tab (${url})` : 'any open tab'}.`
  const notes = context.knowledge.map((n) => `### ${n.siteId}: ${n.fileName}\n\n${n.content.trim()}`)
  return [
    `# Site context for ${url}`,
    `Site skill: ${context.siteName} (${context.siteId}), domain ${context.domain}.`,
    '## Notes',
    ...notes,
    '## Tools',
    toolLines(context).join('\n'),
  ].join('\n\n')
}

/** `site-skills://<id>/verification.json`: the skill's verification record. */
const recordUri = (siteId: string) => `${SCHEME}${encodeURIComponent(siteId)}/${VERIFICATION_FILE}`

/**
 * A skill's notes as resources (or as links to them, in a tool's result), then its verification record if it has one.
 */
function noteResources(skill: SkillMeta): Resource[] {
  const notes: Resource[] = skill.notes.map((path) => ({
    uri: noteUri(skill.id, path),
    name: `${skill.id}/${path}`,
    title: `${skill.name}: ${path}`,
    mimeType: 'text/markdown',
  }))
  if (!skill.verified) return notes
  const { date, passed, failed } = skill.verified
  const record: Resource = {
    uri: recordUri(skill.id),
    name: `${skill.id}/${VERIFICATION_FILE}`,
    title: `${skill.name}: verified ${date.slice(0, 10)} (${passed} passed, ${failed} failed)`,
    description: 'What site-skills test --record verified and when: each example, the package version, file digests.',
    mimeType: 'application/json',
  }
  return [...notes, record]
}

/** The record as the server gives it: the file's content, and whether the skill's files still match it. */
async function recordText(realDir: string): Promise<string> {
  const file = readRecordFile(realDir)
  if (!file || !('text' in file))
    throw new Error(`${VERIFICATION_FILE} cannot be used: ${file?.problem ?? 'it is gone'}`)
  const current = (await recordIsCurrent({ realDir })) === true
  return JSON.stringify({ current, ...(JSON.parse(file.text) as object) }, null, 2)
}

/** Links to the notes of skills, for a tool result that names them. */
export function noteLinks(skills: readonly SkillMeta[]): ResourceLink[] {
  return skills.flatMap((s) => noteResources(s).map((r) => ({ type: 'resource_link' as const, ...r })))
}

export function createContext({ skills, agentSkills }: ContextOptions): SiteContext {
  async function listResources(url: string | null | undefined, every: boolean): Promise<Resource[]> {
    const state = await skills.current()
    const matching = every ? state.api.skills : url ? state.api.siteSkillsForUrl(url) : []
    const notes = matching.flatMap(noteResources)
    const problems = { uri: PROBLEMS_URI, name: 'problems', title: 'Invalid skills', mimeType: 'application/json' }
    const manuals = (await agentSkills?.listResources(matching.map((s) => s.id))) ?? []
    return [...notes, problems, ...manuals]
  }

  async function readResource(uri: string): Promise<ReadResourceResult> {
    const state = await skills.current()
    if (uri === PROBLEMS_URI) {
      const text = JSON.stringify({ kept: state.kept, errors: state.errors }, null, 2)
      return { contents: [{ uri, mimeType: 'application/json', text }] }
    }
    for (const skill of state.api.skills) {
      if (skill.verified && uri === recordUri(skill.id)) {
        const model = state.skills.find((s) => s.model.id === skill.id)!.model
        return { contents: [{ uri, mimeType: 'application/json', text: await recordText(model.realDir) }] }
      }
      // Notes load in the order of the skill's `notes`.
      const index = skill.notes.findIndex((p) => noteUri(skill.id, p) === uri)
      if (index < 0) continue
      const note = (await state.api.loadNotes(skill.id))[index]
      return { contents: [{ uri, mimeType: 'text/markdown', text: note?.content ?? '' }] }
    }
    throw new SiteToolError('skill-not-found', `no note at ${uri}`)
  }

  async function getPrompt(name: string, here: string | undefined): Promise<GetPromptResult> {
    if (name !== CONTEXT_PROMPT) throw new SiteToolError('tool-not-found', `no prompt is named ${JSON.stringify(name)}`)
    const context = here ? await (await skills.current()).api.loadLearnedContext(here) : undefined
    return {
      description: `Learned context for ${here ?? 'no tab'}`,
      messages: [{ role: 'user', content: { type: 'text', text: contextText(here, context) } }],
    }
  }

  const prompts: Prompt[] = [
    {
      name: CONTEXT_PROMPT,
      title: 'Site context of a tab',
      description:
        'The notes and tools of the site skills that match your active tab (or `tab`), as one text to put in the ' +
        'conversation.',
      arguments: [{ name: 'tab', description: TAB_PROPERTY.description }],
    },
  ]

  return { listResources, readResource, prompts, getPrompt }
}
