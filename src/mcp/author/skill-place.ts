import { existsSync, realpathSync, statSync } from 'node:fs'
import { join } from 'node:path'
import { isInside } from '../../compiler/fs/paths'
import { Refusal } from './author-results'

/** A skill id as `site-skills new` takes it: lowercase words and dashes. */
const SITE_ID_RE = /^[a-z0-9][a-z0-9-]{0,127}$/

/** Where a skill would be written: whether it exists below the writable root. */
export interface SkillPlace {
  siteId: string
  exists: boolean
  /** The real path of its folder, when it exists. */
  real?: string
}

/**
 * The skill `siteId` of the writable root `dir`. A skill that lives in another root, or whose
 * folder leads outside `dir`, is refused: the server writes only below `dir`.
 */
export function locateSkill(dir: string, roots: readonly string[], siteId: string): SkillPlace {
  if (!SITE_ID_RE.test(siteId))
    throw new Refusal(
      'invalid-args',
      `"site" must be a skill id (lowercase letters, digits and "-"), not ${JSON.stringify(siteId)}`,
    )
  const folder = join(dir, siteId)
  if (existsSync(folder)) {
    const real = realpathSync(folder)
    if (!isInside(realpathSync(dir), real) || !statSync(real).isDirectory())
      throw new Refusal(
        'path-escape',
        `${siteId} leads to ${real}, outside the writable root ${dir}: nothing was written`,
      )
    return existsSync(join(real, 'manifest.json')) ? { siteId, exists: true, real } : { siteId, exists: false }
  }
  const elsewhere = roots.find((root) => root !== dir && existsSync(join(root, siteId, 'manifest.json')))
  if (elsewhere)
    throw new Refusal(
      'read-only',
      `${siteId} is in ${elsewhere}, which this server may not write (it writes only ${dir}, given with --allow-write)`,
    )
  return { siteId, exists: false }
}
