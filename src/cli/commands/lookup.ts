import type { SkillMeta, VerificationSummary } from '../../../runtime/index'
import type { SkillModel } from '../../compiler/model'
import { current, loadLearnedContext, oneShot, siteSkillsForUrl } from '../../nobuild/api'
import { recordIsCurrent } from '../../verification/stale'
import { resultTokens } from '../../../runtime/internal'
import { recordedTokensOf } from '../../compiler/verification'
import { type ContextTokens, type ExampleTokens, contextTokens } from '../../tokens/count'
import { loadTokenizer } from '../../tokens/tokenizer'
import { callExample } from '../call-example'
import { type CliIO, UsageError, writeLine } from '../io'
import { compatOf } from '../roots'
import { existingRoots } from '../compile-roots'
import type { Args } from '../command-table'

/** `site-skills match URL...`: the skills of each URL, in directory-name order. */
export async function matchCommand(args: Args<'match'>, io: CliIO): Promise<number> {
  if (args.positionals.length === 0) throw new UsageError('match needs at least one URL: site-skills match URL...')
  const roots = await existingRoots(args, io)
  const options = oneShot(roots, compatOf(args))
  const found: [string, string[]][] = []
  for (const url of args.positionals) found.push([url, (await siteSkillsForUrl(url, options)).map((s) => s.id)])
  // Own properties: a URL such as `__proto__` is printed like any other.
  const out = Object.fromEntries(found)
  if (args.json) writeLine(io.stdout, JSON.stringify(out, null, 2))
  else
    for (const [url, ids] of Object.entries(out))
      writeLine(io.stdout, `${url}  ->  ${ids.length ? ids.join(', ') : '(no skill)'}`)
  return 0
}

/** `site-skills context URL`: the original's LearnedContext, plus model tool definitions. */
export async function contextCommand(args: Args<'context'>, io: CliIO): Promise<number> {
  const [url, ...rest] = args.positionals
  if (!url || rest.length) {
    const count = url ? `, not ${args.positionals.length}` : ''
    throw new UsageError(`context takes one URL${count}: site-skills context URL`)
  }
  // Loaded first: without the tokenizer the command exits 2 before it reads anything.
  const tokenizer = args.tokens ? await loadTokenizer() : undefined
  const options = oneShot(await existingRoots(args, io), compatOf(args))
  const context = await loadLearnedContext(url, options)
  const { api, models } = await current(options)
  const tokens = tokenizer && (await contextTokens(api, url, tokenizer, exampleResults(models)))
  const verification = await verificationOf(api.siteSkillsForUrl(url), models)
  if (args.json) {
    const extra = {
      ...(verification.length ? { verification: Object.fromEntries(verification) } : {}),
      ...(tokens ? { tokens } : {}),
    }
    writeLine(io.stdout, JSON.stringify({ ...context, ...extra }, null, 2))
    return 0
  }
  if (tokens) {
    for (const line of tokenLines(url, tokens)) writeLine(io.stdout, line)
    return 0
  }
  if (!context.exists) {
    writeLine(io.stdout, `no site skill matches ${context.domain || url}`)
    return 0
  }
  writeLine(io.stdout, `${context.siteName} (${context.siteId}) for ${context.domain}`)
  const scoped = (await siteSkillsForUrl(url, options)).filter((s) => s.urls)
  for (const s of scoped) writeLine(io.stdout, `${s.id} applies on paths ${s.urls!.join(', ')}`)
  for (const [id, v] of verification) writeLine(io.stdout, verifiedLine(id, v))
  for (const note of context.knowledge)
    writeLine(io.stdout, `\n## ${note.siteId}: ${note.fileName}\n\n${note.content.trimEnd()}`)
  writeLine(io.stdout, '\n## tools')
  for (const tool of context.tools) {
    writeLine(io.stdout, `- ${tool.siteId} -> ${tool.toolName} (${tool.toolType}): ${tool.description}`)
    writeLine(io.stdout, `    ${callExample(tool)}`)
  }
  return 0
}

/**
 * A tool's examples' result tokens: as `test --record` recorded them, else their `expect` as compact
 * text (a partial value), both the runtime's estimate.
 */
function exampleResults(models: ReadonlyMap<string, SkillModel>): ExampleTokens {
  return (siteId, tool) => {
    const model = models.get(siteId)
    const examples = model?.tools.find((t) => t.name === tool)?.examples ?? []
    const recorded = examples.flatMap((e) => recordedTokensOf(model?.recordedTokens, tool, e.name) ?? [])
    return recorded.length ? recorded : examples.flatMap((e) => (e.expect ? [resultTokens(e.expect.value)] : []))
  }
}

/** What `context` says of a skill's verification record: its summary, and whether the files still match it. */
type Verified = VerificationSummary & { current: boolean }

/** The records of the matched skills that have one, in match order. */
async function verificationOf(
  skills: readonly SkillMeta[],
  models: ReadonlyMap<string, SkillModel>,
): Promise<[string, Verified][]> {
  const out: [string, Verified][] = []
  for (const skill of skills) {
    const model = models.get(skill.id)
    if (!model?.verified) continue
    out.push([skill.id, { ...model.verified, current: (await recordIsCurrent(model)) === true }])
  }
  return out
}

function verifiedLine(id: string, v: Verified): string {
  const how = v.live ? 'on fixtures and live pages' : 'on fixtures'
  const state = v.current ? '' : '; files changed since (run site-skills test --record again)'
  return (
    `${id} verified ${v.date} with unplugin-site-skills ${v.version}, ${how}: ${v.passed} passed, ${v.failed} ` +
    `failed${state}`
  )
}

const figure = (n: number) => n.toLocaleString('en-US')

/** Beside a tool's definition tokens: its typical result's, from its examples. */
const resultNote = (tokens: number | undefined) =>
  tokens === undefined ? '' : `  (a typical result: ~${figure(tokens)})`

/** `context --tokens` for people: one line per skill, tool and note, then the total. */
function tokenLines(url: string, tokens: ContextTokens): string[] {
  const rows: [string, number, string?][] = []
  for (const skill of tokens.skills) {
    rows.push([skill.siteId, skill.total])
    for (const tool of skill.tools) rows.push([`  tool ${tool.name}`, tool.tokens, resultNote(tool.result)])
    for (const note of skill.notes) rows.push([`  note ${note.file}`, note.tokens])
  }
  rows.push(['total', tokens.total])
  const width = Math.max(...rows.map(([label]) => label.length))
  const size = Math.max(...rows.map(([, n]) => figure(n).length))
  const head = `tokens of ${url} (${tokens.encoding}): tools ${figure(tokens.tools)}, notes ${figure(tokens.notes)}`
  const body = rows.map(([label, n, note]) => `  ${label.padEnd(width)}  ${figure(n).padStart(size)}${note ?? ''}`)
  return tokens.skills.length ? [head, ...body] : [`no site skill matches ${url}: 0 tokens`]
}
