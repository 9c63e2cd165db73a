import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { Ajv } from 'ajv'
import ucs2length from 'ajv/dist/runtime/ucs2length.js'
import { describe, expect, it } from 'vitest'
import { VALIDATOR_OPTIONS, VALIDATOR_PATH, generateManifestValidator } from '../../scripts/manifest-validator'
import { validate as generated } from '../../src/compiler/validate/manifest-validator.generated'
import { manifestSchema } from '../../src/compiler/validate/schema'
import { REPO_ROOT } from '../helpers/tmp'

/** Every manifest of the test fixtures and shipped skills that is JSON, by folder. */
function fixtureManifests(): [string, unknown][] {
  const found: [string, unknown][] = []
  for (const base of ['test/fixtures/rules', 'learnings']) {
    for (const entry of readdirSync(join(REPO_ROOT, base), { withFileTypes: true })) {
      if (!entry.isDirectory()) continue
      for (const dir of [entry.name, ...readdirSync(join(REPO_ROOT, base, entry.name))]) {
        try {
          const file = join(REPO_ROOT, base, entry.name === dir ? dir : `${entry.name}/${dir}`, 'manifest.json')
          found.push([file, JSON.parse(readFileSync(file, 'utf8'))])
        } catch {}
      }
    }
  }
  return found
}

describe('the manifest validator compiled ahead of time', () => {
  it('is the one the schema gives (run `npm run gen:validator` after changing manifest.schema.json)', () => {
    expect(readFileSync(VALIDATOR_PATH, 'utf8')).toBe(generateManifestValidator())
  })

  it('finds exactly what ajv compiling the schema now finds, error for error', () => {
    const fresh = new Ajv(VALIDATOR_OPTIONS).compile(manifestSchema)
    const check = generated as unknown as typeof fresh
    const manifests = fixtureManifests()
    const made: unknown[] = [
      { id: 'a', name: '', domains: [] },
      { id: 'a', name: '😀', domains: ['x.com'], extra: 1 },
      { id: 7, name: 'n', domains: 'x.com', nodeTools: { f: { description: 3 } } },
      [],
      null,
    ]
    const inputs = [...manifests.map(([, value]) => value), ...made]
    expect(manifests.length).toBeGreaterThan(40)
    let invalid = 0
    for (const input of inputs) {
      const ok = check(input)
      expect(ok).toBe(fresh(input))
      expect(check.errors ?? null).toEqual(fresh.errors ?? null)
      if (!ok) invalid++
    }
    expect(invalid).toBeGreaterThan(5)
  })

  it("counts a string's length as ajv's runtime helper does (code points; a lone surrogate is one)", () => {
    const source = /const (\w+) = (\(text\) => \{[^\n]*?return n \});/.exec(readFileSync(VALIDATOR_PATH, 'utf8'))
    expect(source).not.toBeNull()
    const own = new Function(`return ${source![2]}`)() as (text: string) => number
    for (const text of ['', 'abc', '😀', 'a😀b', '\ud83d', '\ude00x', '\ud83d\ud83d\ude00', 'é̀'])
      expect([text, own(text)]).toEqual([text, ucs2length(text)])
  })
})
