import { describe, expect, it } from 'vitest'
import { runValidateBench } from '../../bench/validate'

// The validate row of `npm run bench` (issue 29, goal 9) on a tiny tree: both sides ran and measured
// what they claim to (no timing is asserted).
describe('benchmark row: validate', () => {
  it('times site-skills validate and the floor (every file read, every manifest parsed) in fresh processes', async () => {
    const figures = await runValidateBench({ size: 20, runs: 1 })
    expect(figures.map((f) => f.name)).toEqual([
      'validate, 20 skills: site-skills validate vs reading every file + JSON.parse of each manifest',
      'peak RSS, validate, 20 skills: site-skills validate vs the same floor',
    ])
    for (const f of figures) {
      expect(f.error, f.name).toBeUndefined()
      expect(f.subject!.value.median, f.name).toBeGreaterThan(0)
      expect(f.baseline!.value.median, f.name).toBeGreaterThan(0)
      expect(Number.isFinite(f.ratio!.median), f.name).toBe(true)
      expect(f.goal?.text, f.name).toMatch(/^under .+, or within 2x of the floor$/)
    }
    // Six files per generated skill, one manifest each; the CLI validated every skill.
    expect(figures[0]!.notes?.[0]).toMatch(/^floor: 120 files \(.+\) read, 20 manifests parsed/)
    expect(figures[0]!.notes?.[1]).toBe('validate printed: ✔ 0 errors, 0 warnings in 20 skills')
  })
})
