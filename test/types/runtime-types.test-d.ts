/**
 * Type tests of the runtime's public types (vitest typecheck, in the unit project): a registry in the shape the
 * generated site-skills.d.ts declares (test/codegen/__snapshots__), read through `SiteSkillsModule` as
 * `virtual:site-skills` is. The spawned `tsc` of test/types/*.test.ts checks the generated file itself.
 */
import { describe, expectTypeOf, it } from 'vitest'
import type { BrowserTarget } from '../../runtime/browser'
import type { SiteSkills } from '../../runtime/registry'
import type { PageArgs, ResultPage, SiteSkillsModule, TypedSiteSkills } from '../../runtime/typed-skills'
import type { KnowledgeNote, SkillMeta } from '../../runtime/skill-data'

interface Registry {
  ext: {
    search: {
      kind: 'node'
      args: { query: string; category?: 'books' | 'music'; range?: { min: number; max?: number } }
      returns: { id: string }[]
    }
    typed: { kind: 'node'; args: Record<string, never>; returns: unknown[] }
    read: { kind: 'browser'; args: { selector?: string }; returns: { title: string } }
  }
}
interface Host {
  page: string
}
declare const api: SiteSkillsModule<Registry, Host>

describe('SiteSkillsModule', () => {
  it('is the loose API before the first build (an empty registry)', () => {
    expectTypeOf<SiteSkillsModule<Record<never, never>>>().toEqualTypeOf<SiteSkills>()
  })

  it('is typed by a registry once there is one', () => {
    expectTypeOf<SiteSkillsModule<Registry, Host>>().toEqualTypeOf<TypedSiteSkills<Registry, Host>>()
    expectTypeOf(api.skills).toEqualTypeOf<readonly SkillMeta[]>()
    expectTypeOf(api.loadNotes).parameter(0).toEqualTypeOf<'ext'>()
    expectTypeOf(api.loadNotes('ext')).resolves.toEqualTypeOf<KnowledgeNote[]>()
  })

  it('gives a tool call its declared result', () => {
    expectTypeOf(api.runTool('ext', 'search', { query: 'x' }, { page: 'p' })).resolves.toEqualTypeOf<{ id: string }[]>()
    expectTypeOf(api.runBrowserTool('ext', 'read', {}, 'localhost:9222')).resolves.toEqualTypeOf<{ title: string }>()
    expectTypeOf(api.sites.ext.read({}, 'localhost:9222')).resolves.toEqualTypeOf<{ title: string }>()
    // A stub given a cursor returns the next page of the result.
    expectTypeOf(api.sites.ext.search({ query: 'x', cursor: 'c' }, { page: 'p' })).resolves.toEqualTypeOf<
      ResultPage<{ id: string }[]>
    >()
  })

  it('takes a Node tool the host as ctx and a browser tool a CDP target', () => {
    expectTypeOf(api.sites.ext.search).parameters.toEqualTypeOf<
      [args: Registry['ext']['search']['args'] & PageArgs<string | undefined>, ctx: Host]
    >()
    expectTypeOf(api.sites.ext.read).parameters.toEqualTypeOf<
      [args: (Registry['ext']['read']['args'] & PageArgs<string | undefined>) | undefined, target: BrowserTarget]
    >()
  })

  it('refuses unknown ids, wrong arguments and the wrong kind of tool', () => {
    // @ts-expect-error unknown site id
    api.runTool('nope', 'search', { query: 'x' }, { page: 'p' })
    // @ts-expect-error unknown tool name
    api.runTool('ext', 'nope', {}, { page: 'p' })
    // @ts-expect-error wrong argument type
    api.runTool('ext', 'search', { query: 1 }, { page: 'p' })
    // @ts-expect-error value outside the enum
    api.runTool('ext', 'search', { query: 'x', category: 'films' }, { page: 'p' })
    // @ts-expect-error a Node tool needs the host's ctx
    api.sites.ext.search({ query: 'x' })
    // @ts-expect-error a Node tool is not a browser tool
    api.runBrowserTool('ext', 'search', { query: 'x' }, 'localhost:9222')
    // @ts-expect-error browserToolSource takes browser tools only
    api.browserToolSource('ext', 'typed')
  })
})

describe('ResultPage', () => {
  it('spreads an object result beside pageInfo and wraps anything else in result', () => {
    expectTypeOf<ResultPage<{ items: string[] }>['items']>().toEqualTypeOf<string[]>()
    expectTypeOf<ResultPage<string[]>['result']>().toEqualTypeOf<string[]>()
    expectTypeOf<ResultPage<number>['result']>().toEqualTypeOf<number>()
    expectTypeOf<ResultPage<number>['pageInfo']['cursor']>().toEqualTypeOf<string | undefined>()
  })
})
