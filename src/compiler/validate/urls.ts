import { loadUrlPattern } from '../../../runtime/index'
import { compilePathPattern } from '../../../runtime/internal'
import type { JsonPath } from '../parse'
import type { SlowShape } from '../diagnostics/url-messages'
import { type FolderValidation, reportAt } from './folder-validation'
import { slowShape } from './url-shapes'

/** The text of URLPattern's error without its constructor's preamble. */
function reasonOf(error: unknown): string {
  const text = error instanceof Error ? error.message : String(error)
  return text.replace(/^Failed to construct 'URLPattern':\s*/, '').replace(/\.$/, '')
}

/**
 * Checks a `urls` list (of the skill at `['urls']`, or of a tool) pattern by pattern with
 * URLPattern itself, then refuses a pattern it could not match in time linear in the path
 * (`slowShape`), and returns the list when every pattern is fine. Its shape (a non-empty list of
 * non-empty strings) is the schema's check; such a list is only skipped here.
 */
export async function checkUrls(
  check: FolderValidation,
  path: JsonPath,
  value: unknown,
  at: string,
): Promise<string[] | undefined> {
  if (!Array.isArray(value) || value.length === 0 || !value.every((p) => typeof p === 'string' && p !== ''))
    return undefined
  await loadUrlPattern()
  let ok = true
  value.forEach((pattern: string, index) => {
    const fail = (problem: 'slash' | 'invalid', reason?: string) => {
      ok = false
      reportAt(check, [...path, index], {
        code: 'url-pattern',
        data: { at, problem, pattern, ...(reason ? { reason } : {}) },
      })
    }
    const refuse = (slow: SlowShape) => {
      ok = false
      reportAt(check, [...path, index], { code: 'url-pattern', data: { at, problem: 'slow', pattern, ...slow } })
    }
    if (!pattern.startsWith('/')) {
      fail('slash')
      return
    }
    try {
      compilePathPattern(pattern)
    } catch (error) {
      fail('invalid', reasonOf(error))
      return
    }
    const slow = slowShape(pattern)
    if (slow) refuse(slow)
  })
  return ok ? [...value] : undefined
}
