import { urlMatchesDomains } from '../../../runtime/internal'
import { crossCheck } from '../../compiler/compile'
import type { Diagnostic } from '../../compiler/diagnostics/catalog'
import { isInside } from '../../compiler/fs/paths'
import type { SkillRecord } from '../../compiler/model'
import type { AuthorContext } from './author-context'
import { Refusal, shownDiagnostic } from './author-results'

/** A finding, whatever root its skill was compiled in (a staged copy's is a stage folder). */
const keyOf = (d: Diagnostic) => `${d.siteId}\0${d.code}\0${d.file}:${d.line}:${d.column}\0${d.message}`

function findings(records: readonly SkillRecord[]): Diagnostic[] {
  return [...crossCheck(records).values()].flat()
}

/** The roots' records with the staged one in place of the skill's real folder `real` (added when new). */
function withStaged(records: readonly SkillRecord[], staged: SkillRecord, dir: string, real: string | undefined) {
  const at = records.findIndex((r) => r.folder.realDir === real)
  if (at !== -1) return records.map((r, i) => (i === at ? staged : r))
  const next = [...records]
  const lastOfDir = next.findLastIndex((r) => isInside(dir, r.folder.realDir))
  next.splice(lastOfDir + 1, 0, staged)
  return next
}

/**
 * What the cross-skill rules (one id per skill, a domain claimed once, one model name per tool)
 * would newly find in every root of the server if the staged skill replaced the real one: the roots
 * are validated together before a write is kept, so that a write never breaks another root's skill.
 */
async function crossFindings(
  context: AuthorContext,
  stagedRecords: readonly SkillRecord[],
  siteId: string,
  real: string | undefined,
): Promise<Diagnostic[]> {
  const staged = stagedRecords.find((r) => r.folder.id === siteId)
  if (!staged) return []
  const { records } = await context.skills.current()
  const before = new Set(findings(records).map(keyOf))
  return findings(withStaged(records, staged, context.dir, real)).filter((d) => !before.has(keyOf(d)))
}

/** A finding as the authoring tools return it; one of a skill of another root names that root. */
function shownFinding(d: Diagnostic, siteId: string) {
  return { ...shownDiagnostic(d), ...(d.siteId === siteId ? {} : { site: d.siteId, root: d.root }) }
}

/**
 * Refuses to make a new skill for a page that a skill of a root the server may not write already
 * claims: that skill's author owns the site, and two skills for one host would both match.
 */
export async function refuseClaimed(context: AuthorContext, url: string): Promise<void> {
  const { records } = await context.skills.current()
  const claiming = records.find(
    (r) => r.model && !isInside(context.dir, r.folder.realDir) && urlMatchesDomains(url, r.model.domains),
  )
  if (claiming)
    throw new Refusal(
      'read-only',
      `${url} is a page of skill ${claiming.folder.id} (in ${claiming.folder.root}), which this server may not ` +
        `write: a second skill for it is not made (add to ${claiming.folder.id} there, or snapshot a page it does ` +
        `not claim)`,
    )
}

/** What keeping a staged write came to: the new cross findings (shown), and whether it was written. */
interface Kept {
  kept: boolean
  findings: ReturnType<typeof shownFinding>[]
  errors: number
}

/**
 * Writes the changes of a staged skill when the roots, validated together with it, show no new
 * error; one write at a time across skills, so that two writes cannot each pass alone and collide.
 */
export function keepStaged(
  context: AuthorContext,
  staged: { records: readonly SkillRecord[]; siteId: string; real: string | undefined },
  commit: () => void,
): Promise<Kept> {
  return context.locked('', async () => {
    const found = await crossFindings(context, staged.records, staged.siteId, staged.real)
    const errors = found.filter((d) => d.severity === 'error').length
    const kept = errors === 0
    if (kept) {
      commit()
      // The next write (and the caller) see this one in the server's skills.
      await context.skills.current()
    }
    return { kept, errors, findings: found.map((d) => shownFinding(d, staged.siteId)) }
  })
}
