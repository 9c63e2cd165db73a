import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { WEBMCP_PAGE_PATH, generateWebMcpPage } from '../../scripts/webmcp-page'

describe('the WebMCP page code bundled ahead of time', () => {
  it('is what runtime/webmcp-page.ts and its imports give (run `npm run gen:webmcp-page` after changing them)', async () => {
    expect(readFileSync(WEBMCP_PAGE_PATH, 'utf8')).toBe(await generateWebMcpPage())
  })
})
