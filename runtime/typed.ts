import type { BrowserTarget } from './browser'
import type { ToolDefinitions } from './definitions'
import type { BrowserRunOptions, LearnedContext, ModelArgs, SiteSkills } from './registry'
import type { KnowledgeNote, SkillMeta } from './types'

/** One tool in a generated registry: its kind, argument and return types. */
export interface ToolSpec {
  kind: 'node' | 'browser'
  args: object
  returns: unknown
}

/** The shape of `SiteSkillRegistry` in the generated `.d.ts`: site id -> tool name -> spec (documentation; interfaces are not checked against it). */
export type ToolRegistry = { [siteId: string]: { [tool: string]: ToolSpec } }

type Sites<R> = keyof R & string
type Tools<R, S extends keyof R> = keyof R[S] & string
type Spec<R, S extends keyof R, T extends keyof R[S]> = R[S][T] extends ToolSpec ? R[S][T] : never
type ToolsOfKind<R, S extends keyof R, K> = { [T in keyof R[S]]: R[S][T] extends { kind: K } ? T : never }[keyof R[S]] & string
/** Arguments may be left out when every one is optional. */
type ArgsParam<A> = {} extends A ? [args?: A] : [args: A]
type CtxParam<P extends ToolSpec> = P['kind'] extends 'browser' ? [target: BrowserTarget] : [ctx?: unknown]

/** `virtual:site-skills` typed by a registry. */
export interface TypedSiteSkills<R> {
  skills: readonly SkillMeta[]
  siteSkillsForUrl: (url: string | URL) => SkillMeta[]
  loadLearnedContext: (url: string | URL) => Promise<LearnedContext>
  runTool: <S extends Sites<R>, T extends Tools<R, S>>(siteId: S, tool: T, ...rest: [...ArgsParam<Spec<R, S, T>['args']>, ...CtxParam<Spec<R, S, T>>]) => Promise<Spec<R, S, T>['returns']>
  runBrowserTool: <S extends Sites<R>, T extends ToolsOfKind<R, S, 'browser'>>(siteId: S, tool: T, args: Spec<R, S, T>['args'], target: BrowserTarget, options?: BrowserRunOptions) => Promise<Spec<R, S, T>['returns']>
  browserToolSource: <S extends Sites<R>, T extends ToolsOfKind<R, S, 'browser'>>(siteId: S, tool: T) => Promise<string>
  loadNotes: (siteId: Sites<R>) => Promise<KnowledgeNote[]>
  toolDefinitions: (url: string | URL) => ToolDefinitions
  dispatchToolCall: (name: string, args: ModelArgs, ctxOrTarget?: unknown) => Promise<unknown>
  sites: { [S in Sites<R>]: { [T in Tools<R, S>]: (...rest: [...ArgsParam<Spec<R, S, T>['args']>, ...CtxParam<Spec<R, S, T>>]) => Promise<Spec<R, S, T>['returns']> } }
}

/** Before the first build (empty registry) everything is loosely typed. */
export type SiteSkillsModule<R> = keyof R extends never ? LooseSiteSkills : TypedSiteSkills<R>

/** The untyped API (any site id and tool name): what the runtime itself builds. */
export type LooseSiteSkills = SiteSkills
