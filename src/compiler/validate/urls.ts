import { loadUrlPattern } from '../../../runtime/index'
import { compilePathPattern } from '../../../runtime/internal'
import type { JsonPath } from '../parse'
import { type FolderValidation, reportAt } from './context'

/** The text of URLPattern's error without its constructor's preamble. */
function reasonOf(error: unknown): string {
  const text = error instanceof Error ? error.message : String(error)
  return text.replace(/^Failed to construct 'URLPattern':\s*/, '').replace(/\.$/, '')
}

/**
 * Checks a `urls` list (of the skill at `['urls']`, or of a tool) pattern by pattern with
 * URLPattern itself, and returns it when every pattern compiles. Its shape (a non-empty list of
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
    if (!pattern.startsWith('/')) {
      fail('slash')
      return
    }
    try {
      compilePathPattern(pattern)
    } catch (error) {
      fail('invalid', reasonOf(error))
    }
  })
  return ok ? [...value] : undefined
}
