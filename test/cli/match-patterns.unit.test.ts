import { describe, expect, it } from 'vitest'
import { compilePathPattern, loadUrlPattern } from '../../runtime/urls'
import { matchPatterns, pathPattern } from '../../src/export/match-patterns'

/** Chrome's reading of a match pattern's path: `*` is any run of characters, the rest is itself. */
const globMatches = (glob: string, path: string) =>
  new RegExp(
    `^${glob
      .split('*')
      .map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
      .join('.*')}$`,
  ).test(path)

const PATTERNS = [
  '/search',
  '/docs/',
  '/app/*',
  '/items/:id?',
  '/:owner/:repo',
  '/:owner/:repo/issues/*',
  '/repos/:name(\\d+)',
  '/files{/:rest}*',
  '/caf\u00e9/*',
  '/a%20b/x',
  '/wiki/:page+',
  '/v1/*/edit',
]
const PATHS = [
  '/',
  '/search',
  '/search/',
  '/docs/',
  '/app',
  '/app/',
  '/app/7',
  '/items',
  '/items/3',
  '/me/site',
  '/me/site/issues/4',
  '/repos/12',
  '/files',
  '/files/a/b',
  '/caf%C3%A9/menu',
  '/a%20b/x',
  '/wiki/Main',
  '/v1/x/edit',
]

describe('the match patterns of an exported extension', () => {
  it('cover every path a URLPattern pathname matches (wider, never narrower)', async () => {
    await loadUrlPattern()
    let matched = 0
    for (const pattern of PATTERNS) {
      const test = compilePathPattern(pattern)
      const glob = pathPattern(pattern)
      for (const path of PATHS) {
        if (!test.test({ pathname: path })) continue
        matched++
        expect(globMatches(glob, path), `${pattern} -> ${glob} on ${path}`).toBe(true)
      }
    }
    expect(matched).toBeGreaterThan(15)
  })

  it('keep a plain start where there is one', () => {
    expect(PATTERNS.map(pathPattern)).toEqual([
      '/search*',
      '/docs/*',
      '/app*',
      '/items*',
      '/*',
      '/*',
      '/repos*',
      '/*',
      '/*',
      '/*',
      '/wiki*',
      '/v1*',
    ])
  })

  it('give http and https on any port of each domain, a wildcard also taking its base', () => {
    expect(matchPatterns(['example.com', '*.example.org', '[::1]'], ['/app/*', '/app/:id'])).toEqual([
      '*://*.example.org/app*',
      '*://[::1]/app*',
      '*://example.com/app*',
    ])
    expect(matchPatterns(['127.0.0.1'])).toEqual(['*://127.0.0.1/*'])
  })
})
