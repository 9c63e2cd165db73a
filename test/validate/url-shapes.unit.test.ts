import { beforeAll, describe, expect, it } from 'vitest'
import { loadUrlPattern } from '../../runtime/index'
import { compilePathPattern, urlMatchesPaths } from '../../runtime/internal'
import { slowShape } from '../../src/compiler/validate/url-shapes'

/** Patterns URLPattern matches in time linear in the path: a table of common and edge shapes. */
const LINEAR = [
  '/:owner/:repo',
  '/:owner/:repo/*',
  '/:owner/:repo/issues/:n',
  '/document/d/*',
  '/*',
  '/*/issues/*',
  '/*.html',
  '/:id(\\d+)',
  '/:n(\\d{1,10})-:m',
  '/:id(\\d+)-:slug',
  '/:id([0-9]+){-:slug}?',
  '/:slug([a-z0-9-]+)',
  '/:a+',
  '/:a+/x',
  '/:a?/:b?/x',
  '/foo{/:bar}*/x',
  '/:p(.*)/x',
  '/:x([^/]+)/y',
  '/:a(\\w+)/:b(\\w+)',
  '/(a|ab)(c|bcd)(d*)',
  '/:a/:b/:c/:d/:e/:f/:g/:h/*',
]

/** Patterns refused, with the shape that makes them slow. */
const SLOW: [string, string][] = [
  ['/:slug((?:[a-z0-9]+-?)+)', 'nested-repeat'],
  ['/:slug([a-z0-9]+(?:-[a-z0-9]+)*)', 'nested-repeat'],
  ['/((?:a|a)+)', 'nested-repeat'],
  ['/{:a}+x', 'repeat-separator'],
  ['/{-:a}+x', 'repeat-separator'],
  ['/(.*)+', 'repeat-separator'],
  ['/:a-:b/x', 'ambiguous'],
  ['/:name.:ext', 'ambiguous'],
  ['/:id(\\d+):slug', 'ambiguous'],
  ['/:id(\\d+)-:a-:b', 'ambiguous'],
  ['/:id([0-9a-f]+)-:slug', 'ambiguous'],
  ['/:a(\\w+\\d+)', 'ambiguous'],
  ['/:a(a*)(a*)(a*)x', 'ambiguous'],
  ['/:a([a-z]{1,1000}[a-z]{1,1000})', 'ambiguous'],
  ['/*/*/x', 'wildcards'],
  ['/:a+/:b+/x', 'wildcards'],
  ['/:p(.+)/:q(.+)/x', 'wildcards'],
  ['/{x}?{x}?{x}?{x}?{x}?{x}?{x}?{x}?{x}?xxxxxxxxx', 'modifiers'],
]

/** Paths of 8 KB (the longest matched) that almost match the patterns above. */
const N = 8192
const HOSTILE = [
  `/${'a'.repeat(N - 3)}!/`,
  `/${'a-'.repeat(N / 2 - 2)}/`,
  `/${'a/'.repeat(N / 2 - 2)}!`,
  `/${'a.'.repeat(N / 2 - 2)}/`,
  `/${'1-'.repeat(N / 2 - 2)}/`,
  `/${'ab'.repeat(N / 2 - 2)}c/`,
]

beforeAll(() => loadUrlPattern())

describe('URL patterns matched in linear time', () => {
  it.each(LINEAR)('accepts %s, and it answers on 8 KB paths that almost match', (pattern) => {
    expect(slowShape(pattern)).toBeUndefined()
    const compiled = compilePathPattern(pattern)
    for (const pathname of HOSTILE) expect(typeof compiled.test({ pathname })).toBe('boolean')
  })

  it.each(SLOW)('refuses %s (%s)', (pattern, shape) => {
    expect(() => compilePathPattern(pattern)).not.toThrow()
    expect(slowShape(pattern)?.shape).toBe(shape)
  })

  it('matches no list against a path over 8,192 characters, and still matches one at the limit', () => {
    const url = (length: number) => `https://example.com/${'a'.repeat(length - 1)}`
    expect(urlMatchesPaths(url(8192), [['/*']])).toBe(true)
    expect(urlMatchesPaths(url(8193), [['/*']])).toBe(false)
    // An unscoped skill is not affected.
    expect(urlMatchesPaths(url(100_000), [undefined])).toBe(true)
  })
})
