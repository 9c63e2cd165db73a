import { describe, expect, it } from 'vitest'
import { runLookupBench } from '../../bench/lookup'

// The lookup rows of `npm run bench` on the smallest sizes that run their code: the variant with
// `urls` on half of the skills is measured beside the plain rows, with the same goals (no timing
// is asserted, only that each row measured what it names).
describe('lookup benchmark rows', () => {
  it('measures the table with urls on half of the skills, with the goals of the plain rows', async () => {
    const figures = await runLookupBench({ sizes: [10, 20], runs: 1 })
    const byName = new Map(figures.map((f) => [f.name, f]))
    const scoped = [
      'URL lookup, 10 skills, urls on half of them: compiled table vs `new URL(url).hostname` alone',
      'URL lookup, 10 skills, urls on half of them, every path new: compiled table vs `new URL(url).hostname` alone',
      'URL lookup, 20 skills, urls on half of them: compiled table vs `new URL(url).hostname` alone',
      'compiled table, urls on half of the skills, 20 vs 10 skills',
    ]
    for (const name of scoped) {
      const f = byName.get(name)
      expect(f, name).toBeDefined()
      expect(f!.error, name).toBeUndefined()
      expect(f!.subject!.value.median, name).toBeGreaterThan(0)
      expect(f!.baseline!.value.median, name).toBeGreaterThan(0)
    }
    const plain = byName.get('URL lookup, 10 skills: compiled table vs `new URL(url).hostname` alone')!
    expect(byName.get(scoped[0]!)!.goal?.text).toBe(plain.goal?.text)
    expect(byName.get(scoped[3]!)!.goal?.text).toBe(byName.get('compiled table, 20 vs 10 skills')!.goal?.text)
  }, 240_000)
})
