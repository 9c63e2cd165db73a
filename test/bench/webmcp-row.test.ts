import { describe, expect, it } from 'vitest'
import { runWebMcpBench } from '../../bench/webmcp'

// The `--only webmcp` rows on the fewest calls that run their code (no timing is asserted).
describe('benchmark rows: webmcp', () => {
  it('measures a WebMCP call against runBrowserTool (same result) and page loads with and without the tools', async () => {
    const figures = await runWebMcpBench({ runs: 1, calls: 2 })
    expect(figures.map((f) => f.name)).toEqual([
      'a call through WebMCP vs runBrowserTool, demo-shop -> read_products',
      'page load (navigate to load event), demo-shop page: with its tools registered vs without',
    ])
    for (const f of figures) {
      expect(f.error, f.name).toBeUndefined()
      expect(f.subject!.value.median, f.name).toBeGreaterThan(0)
      expect(f.baseline!.value.median, f.name).toBeGreaterThan(0)
    }
    expect(figures.map((f) => f.goal?.text)).toEqual(['within 1.2x of runBrowserTool', 'adds at most 5 ms'])
  })
})
