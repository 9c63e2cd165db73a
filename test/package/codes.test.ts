import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { SITE_TOOL_ERRORS } from '../../runtime/error-catalog'
import { README_PATH, withCodeLists } from '../../scripts/docs-codes'
import { DIAGNOSTIC_CATALOG } from '../../src/compiler/diagnostics/catalog'

const README = readFileSync(README_PATH, 'utf8')

describe('README code lists', () => {
  it('are the ones the catalogs generate (run `npm run docs:codes` after changing a catalog)', () => {
    expect(README).toBe(withCodeLists(README))
  })

  it('list every diagnostic code and every runtime error code', () => {
    for (const code of [...Object.keys(DIAGNOSTIC_CATALOG), ...Object.keys(SITE_TOOL_ERRORS)]) {
      expect(README).toContain(`| \`${code}\` |`)
    }
  })

  it('tells a stale list from a fresh one', () => {
    const stale = README.replace('| `root-missing` | error |', '| `root-missing` | warning |')
    expect(stale).not.toBe(README)
    expect(withCodeLists(stale)).toBe(README)
  })

  it('refuses a README without the markers', () => {
    expect(() => withCodeLists('# no lists here\n')).toThrow(/diagnostic-codes:start/)
  })
})
