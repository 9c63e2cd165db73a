import type { NoteModel, SkillModel, ToolModel } from '../compiler/model'
import { type Frontmatter, renderFrontmatter } from './frontmatter'
import {
  COMPATIBILITY_MAX,
  DESCRIPTION_MAX,
  INLINE_BUDGET,
  INLINE_NOTE_LINES,
  SENTENCE_MAX,
  SKILL_MD_LINES,
} from './limits'
import { SOURCE_ROOT, packageSpec, scriptCall } from './script'
import { clip, codeSpan, firstSentence, lengthOf, linkTarget, oneLine } from './clip-text'

/* SKILL.md of an exported skill: its description and body. Pure. */

/** The frontmatter description: the site, its domains, what each tool does and when to use the skill. */
export function describeSkill(skill: SkillModel): string {
  const site = oneLine(skill.name)
  const domains = skill.domains.join(', ')
  const head = `Site tools for ${site} (${domains})`
  const tail = `Use on ${domains} pages or for tasks about ${site}; each tool is a script printing JSON.`
  const phrases = (max: number) => skill.tools.map((t) => `${oneLine(t.name)}: ${firstSentence(t.description, max)}`)
  const names = skill.tools.map((t) => oneLine(t.name))
  const candidates = [phrases(SENTENCE_MAX).join('; '), phrases(SENTENCE_MAX / 2).join('; '), names.join(', ')]
  for (let shown = names.length - 1; shown > 0; shown--)
    candidates.push(`${names.slice(0, shown).join(', ')} and ${names.length - shown} more`)
  for (const tools of candidates) {
    const text = `${head}: ${tools}${/[.…]$/.test(tools) ? '' : '.'} ${tail}`
    if (lengthOf(text) <= DESCRIPTION_MAX) return text
  }
  return clip(`${head}. ${tail}`, DESCRIPTION_MAX)
}

export function compatibility(version: string): string {
  return clip(
    `Needs Node.js 20.19+ and npx (the scripts run ${packageSpec(version)}); browser tools need a Chromium ` +
      'browser with a DevTools (CDP) endpoint and the page open.',
    COMPATIBILITY_MAX,
  )
}

/** A note's Markdown headings moved down two levels (it sits under "## Notes"), code fences left alone. */
function demoteHeadings(markdown: string): string {
  let fenced = false
  return markdown
    .split('\n')
    .map((line) => {
      if (/^\s*(```|~~~)/.test(line)) fenced = !fenced
      return !fenced && /^#{1,6} /.test(line) ? `##${line}`.replace(/^#{7,}/, '######') : line
    })
    .join('\n')
}

/**
 * Where a linked note goes: `notes/x.md` as `references/notes/x.md`, `docs/prompt.md` as
 * `references/notes/docs/prompt.md`.
 */
export const noteFile = (note: NoteModel) => `references/notes/${note.path.replace(/^notes\//, '')}`

const lineCount = (text: string) => text.split('\n').length

/** Whether a note is part of SKILL.md under this plan (else a file it links). */
export const isInlined = (note: NoteModel, plan: BodyPlan) => plan.inline.has(note)

/** The notes to inline, in order: each short enough, while SKILL.md (`baseLines` without them) stays within budget. */
function notesToInline(notes: readonly NoteModel[], baseLines: number): Set<NoteModel> {
  const inline = new Set<NoteModel>()
  let lines = baseLines
  for (const note of notes) {
    const size = lineCount(note.content.trim()) + 1
    if (size > INLINE_NOTE_LINES || lines + size > INLINE_BUDGET) continue
    inline.add(note)
    lines += size
  }
  return inline
}

/** What a linked note is about: its first heading and the first sentence after it. */
function noteTopic(note: NoteModel): string {
  const lines = note.content.split('\n').map((l) => l.trim())
  const heading = lines.find((l) => /^#{1,6} /.test(l))?.replace(/^#+ /, '')
  const text = lines.find((l) => l && !l.startsWith('#'))
  const about = [heading, text && firstSentence(text, SENTENCE_MAX)].filter(Boolean).join(': ')
  return about || note.path
}

function runningSection(skill: SkillModel, version: string): string[] {
  const browser = skill.tools.some((t) => t.kind === 'browser')
  return [
    '## Running a tool',
    '',
    'Run `sh scripts/TOOL.sh --args JSON` (paths are relative to this folder); `--help` prints its arguments',
    'and result.',
    '',
    '- `--args`: the arguments as one JSON object (default `{}`); they are checked before the tool runs.',
    ...(browser
      ? [
          '- Browser tools run inside an open page of a Chromium browser started with `--remote-debugging-port=9222`:',
          "  pass `--cdp 127.0.0.1:9222` and `--target` with the tab's target id or a part of its URL, or",
          '  `--cdp ws://...` for one page. `SITE_SKILLS_CDP` and `SITE_SKILLS_TARGET` give them once for every call.',
        ]
      : []),
    '- Node tools need no browser; `--url URL` tells them which page they are about.',
    '- Exit codes: 0 with the result as compact text on stdout (`key:value` lines, lists of records as tables);',
    '  1 when the tool failed (`site-skills: CODE: message` on stderr); 2 on bad usage.',
    '- A result over its budget comes a page at a time: run again with `pageInfo.cursor` as `cursor` in `--args`.',
    `- The scripts run \`npx --yes --package=${packageSpec(version)} -- site-skills run\` on the skill's`,
    `  files in \`${SOURCE_ROOT}/\`. Install it in the project once: \`npm i -D ${packageSpec(version)}\``,
    '  (the version that wrote them; without it, npx downloads that version on the first call, which needs',
    '  the network).',
  ]
}

export function toolsList(skill: SkillModel, stems: Map<ToolModel, string>): string[] {
  const lines: string[] = []
  for (const tool of skill.tools) {
    const stem = stems.get(tool)!
    const kind = tool.kind === 'browser' ? 'browser' : 'Node'
    const sentence = firstSentence(tool.description, 200)
    const about = /[.!?…]$/.test(sentence) ? sentence : `${sentence}.`
    const pages = tool.urls?.length ? ` Only on pages whose path matches ${tool.urls.map(codeSpan).join(', ')}.` : ''
    lines.push(
      `- ${codeSpan(tool.name)} (${kind} tool): ${about}${pages} [Arguments and result](references/tools/${stem}.md)`,
    )
    lines.push(`  ${codeSpan(scriptCall(tool, `scripts/${stem}.sh`))}`)
  }
  return lines
}

export interface BodyPlan {
  inline: ReadonlySet<NoteModel>
  toolIndex: boolean
}

function notesSection(notes: readonly NoteModel[], plan: BodyPlan): string[] {
  if (!notes.length) return []
  const lines = ['', '## Notes', '']
  const linked = notes.filter((n) => !isInlined(n, plan))
  if (linked.length) {
    lines.push('Read these before using the tools on the site:', '')
    for (const note of linked) lines.push(`- [${note.path}](${linkTarget(noteFile(note))}): ${noteTopic(note)}`)
  }
  for (const note of notes) {
    if (linked.includes(note)) continue
    if (lines.at(-1) !== '') lines.push('')
    lines.push(demoteHeadings(note.content.trim()))
  }
  return lines
}

function body(skill: SkillModel, stems: Map<ToolModel, string>, version: string, plan: BodyPlan): string {
  const site = oneLine(skill.name)
  const tools = toolsList(skill, stems)
  const lines = [
    `# ${site}`,
    '',
    `Tools for ${site} (${skill.domains.map(codeSpan).join(', ')}), exported from the site skill ${codeSpan(skill.id)}`,
    `by \`site-skills export\` (unplugin-site-skills ${version}). Each tool is a script in \`scripts/\` that runs`,
    'it through `npx site-skills run` and prints its result as JSON.',
    ...(skill.urls?.length
      ? ['', `It applies only on pages whose path matches ${skill.urls.map(codeSpan).join(', ')}.`]
      : []),
    '',
    ...runningSection(skill, version),
    '',
    '## Tools',
    '',
    ...(plan.toolIndex ? ['Every tool, with how to call it: [the tool index](references/tools.md).'] : tools),
    ...notesSection(skill.notes, plan),
  ]
  return `${lines.join('\n')}\n`
}

/**
 * SKILL.md under SKILL_MD_LINES: short notes inline within budget, else every note linked, else the tool list in its
 * own file.
 */
export function skillMd(skill: SkillModel, fm: Frontmatter, stems: Map<ToolModel, string>, version: string) {
  const render = (plan: BodyPlan) => `${renderFrontmatter(fm)}\n${body(skill, stems, version, plan)}`
  const linked: BodyPlan = { inline: new Set(), toolIndex: false }
  const plans: BodyPlan[] = [
    { inline: notesToInline(skill.notes, lineCount(render(linked))), toolIndex: false },
    linked,
    { inline: new Set(), toolIndex: true },
  ]
  for (const plan of plans) {
    const text = render(plan)
    if (lineCount(text) - 1 < SKILL_MD_LINES || plan.toolIndex) return { text, plan }
  }
  throw new Error('unreachable')
}
