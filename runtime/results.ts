import { completed, messageOf, type SiteToolErrorInit, siteToolError } from './errors'
import { LOG_PREFIX } from './text'
import type { ReturnsValidator } from './skill-data'

export { LOG_PREFIX }

/**
 * What a tool's result that does not match its manifest's `returns` does: `'throw'` an
 * `invalid-result` SiteToolError, `'warn'` (log it once per tool and path with the `[site-skills]`
 * prefix, and return the value), or `false` (no check). `'warn'` by default: a site that changed
 * its pages does not break an agent's call, and the drift is still seen; choose `'throw'` in tests
 * and CI. The one description of the option (plugin, `createSiteSkills` and no-build API alike);
 * docs/runtime.md, "Results checked at run time", says the same for readers of the docs.
 */
export type ValidateReturns = 'throw' | 'warn' | false

/**
 * Checks a result with a tool's result check (see runtime/value-problems.ts): returns the result (or, the
 * first time a mismatch is logged, a promise of it), or throws under `'throw'`.
 */
export type ResultCheck = (value: unknown, validator: ReturnsValidator | undefined, at: SiteToolErrorInit) => unknown

/**
 * The result check of one registry. Under `'warn'`, a mismatch is logged once per tool and path
 * (array indexes left out, so a drift in every item of a list is one line).
 */
export function createResultCheck(mode: ValidateReturns, warned = new Set<string>()): ResultCheck {
  return (value, validator, at) => {
    if (!mode || !validator) return value
    let problem: ReturnType<ReturnsValidator>
    try {
      problem = validator(value)
    } catch (error) {
      problem = ['result', 'a readable value', messageOf(error)]
    }
    if (!problem) return value
    const error = siteToolError('invalid-result', { problem }, at)
    if (mode === 'throw') throw error
    const key = `${at.siteId}\0${at.tool}\0${problem[0].replace(/\[\d+\]/g, '[]')}`
    if (warned.has(key)) return value
    warned.add(key)
    // Logged (in the catalog's words) before the call returns the value.
    return completed(error).then(() => {
      console.warn(`${LOG_PREFIX} ${error.message}`)
      return value
    })
  }
}
