import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { SITE_TOOL_ERRORS } from '../../runtime/error-catalog'
import { CODES_PATH, withCodeLists } from '../../scripts/docs-codes'
import { DIAGNOSTIC_CATALOG } from '../../src/compiler/diagnostics/catalog'
import { DOCS } from './readme'

const PAGE = readFileSync(CODES_PATH, 'utf8')

describe('the code lists of docs/codes.md', () => {
  it('are the ones the catalogs generate (run `npm run docs:codes` after changing a catalog)', () => {
    expect(PAGE).toBe(withCodeLists(PAGE))
  })

  it('list every diagnostic code and every runtime error code', () => {
    for (const code of [...Object.keys(DIAGNOSTIC_CATALOG), ...Object.keys(SITE_TOOL_ERRORS)]) {
      expect(PAGE).toContain(`| \`${code}\` |`)
    }
  })

  it('are the only ones: no other page of the documentation holds a generated list', () => {
    expect(DOCS.get('docs/codes.md')).toBe(PAGE)
    for (const [file, text] of DOCS) {
      if (file !== 'docs/codes.md') expect(text, file).not.toMatch(/<!-- [\w-]+-codes:(start|end) -->/)
    }
  })

  it('tells a stale list from a fresh one', () => {
    const stale = PAGE.replace('| `root-missing` | error |', '| `root-missing` | warning |')
    expect(stale).not.toBe(PAGE)
    expect(withCodeLists(stale)).toBe(PAGE)
  })

  it('refuses a page without the markers', () => {
    expect(() => withCodeLists('# no lists here\n')).toThrow(/diagnostic-codes:start/)
  })
})
