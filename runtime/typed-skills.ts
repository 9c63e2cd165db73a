import type { BrowserTarget } from './browser'
import type { ToolDefinitions } from './definitions'
import type { BrowserRunOptions, LearnedContext, ModelArgs, SiteSkills } from './registry'
import type { ResultPageInfo } from './pages'
import type { KnowledgeNote, SkillMeta } from './skill-data'

/** One tool in a generated registry: its kind, argument and return types. */
export interface ToolSpec {
  kind: 'node' | 'browser'
  args: object
  returns: unknown
}

/**
 * The shape of `SiteSkillRegistry` in the generated `.d.ts`: site id -> tool name -> spec
 * (documentation; interfaces are not checked against it).
 */
export type ToolRegistry = { [siteId: string]: { [tool: string]: ToolSpec } }

// Site ids and tool names are spelled `keyof R & string` and `keyof R[S]` in place, never through an alias: the
// mapped types over them stay homomorphic (so the manifest's JSDoc reaches `sites` and its stubs), and an error
// names the valid literals (`"search" | "detail"`) instead of an alias such as `Tools<SiteSkillRegistry, "x">`.
type Spec<R, S extends keyof R, T extends keyof R[S]> = R[S][T] extends ToolSpec ? R[S][T] : never
/** The browser tools of a site (used as `BrowserToolName<R, S> & string`, which errors print as the literal names). */
type BrowserToolName<R, S extends keyof R> = {
  [K in keyof R[S]]: R[S][K] extends { kind: 'browser' } ? K : never
}[keyof R[S]]
/** A page of a result `T`: `pageInfo`, then the result's members (an object) or `result` (anything else). */
export type ResultPage<T> = { pageInfo: ResultPageInfo } & (T extends object
  ? T extends readonly unknown[]
    ? { result: T }
    : T
  : { result: T })

/**
 * The argument every tool whose results are paged takes besides its own (not one that declares its own `cursor`);
 * `C` is the cursor a call passes (a typed stub infers it: its result is then a `ResultPage`).
 */
export interface PageArgs<C extends string | undefined = string> {
  /**
   * `pageInfo.cursor` of the last page: the call returns the next page, a `ResultPage` of the result (a model's
   * call through `dispatchToolCall` or `site-skills mcp` is paged by itself when over the tool's `resultBudget`).
   */
  cursor?: C
}

/** What a call returns: the tool's result `T`, or its `ResultPage` when the call passes a cursor (`C` a string). */
export type ResultOrPage<C, T> = C extends string ? ResultPage<T> : T

/** A tool's arguments as a call gives them: its own, and `cursor`. */
type CallArgs<A, C extends string | undefined> = 'cursor' extends keyof A ? A : A & PageArgs<C>
/** Arguments may be left out when every one is optional. */
type ArgsParam<A, C extends string | undefined> =
  Record<never, never> extends A ? [args?: CallArgs<A, C>] : [args: CallArgs<A, C>]
/** A Node tool's `ctx` is the host's type; it may be left out when the host declares no required member. */
type HostParam<H> = Record<never, never> extends H ? [ctx?: H] : [ctx: H]
type CtxParam<P extends ToolSpec, H> = P['kind'] extends 'browser' ? [target: BrowserTarget] : HostParam<H>
/**
 * What follows the site id and tool name in a call: the arguments (optional when none is required),
 * then `ctx` or the target. Any arguments when the spec is `never` (an unknown site id): the error
 * then names the site id, not the arity. `C`: the type of the `cursor` argument (see `PageArgs`).
 */
export type ToolParams<P extends ToolSpec, H, C extends string | undefined = string> = [P] extends [never]
  ? unknown[]
  : [...ArgsParam<P['args'], C>, ...CtxParam<P, H>]

/*
 * The generated d.ts gives `runTool` one documented overload per tool, so that an editor shows the
 * tool's own description for a call (TypeScript 7's language server loads no plugin). Each overload
 * takes its site and tool as type parameters; for any other pair its arguments instantiate to more
 * than a call can have, and TypeScript then skips it silently (a wrong arity is not reported when
 * another overload has a wrong argument). So a call's errors are those of one signature: its tool's
 * overload, or, for an unknown site or tool, the first signature (`RunToolTool`, `RunToolRest`), whose
 * errors name the valid ids. That first signature also gives the completions of the tool name.
 */
/** No call has this many arguments. */
type NoCall = [never, never, never, never, never, never, never, never, never, never, never, never]
/** The rest of a call of tool `Tool` of `Site` through the overload that documents it; no call for another pair. */
export type ToolOverload<R, H, S, T, Site extends keyof R, Tool extends keyof R[Site]> = [S, T] extends [Site, Tool]
  ? ToolParams<Spec<R, Site, Tool>, H>
  : NoCall
/*
 * Above its limit of documented overloads (registries of thousands of sites), `runTool` has two signatures. The
 * first takes a known site and tool. It finds the site by a property lookup on `R`, never through `keyof R`: a
 * checker makes `keyof R` a union of every site id (10,000 string literals) before it can check one, and again in
 * each new program (each edit in an editor). For any other pair its arguments are more than a call can have, and
 * TypeScript goes on silently to the second: the first signature of the documented overloads (`RunToolSite`,
 * `RunToolTool`, `RunToolRest`), whose errors name the valid ids. Only that one, and the completions of a site id
 * or a tool name, list the ids.
 */
/**
 * The tools of site `S` of `R`, found by a property lookup; `never` for an unknown site id or for `string`. `[R, S]`
 * is generic until `S` is known, so that nothing is inferred from `R` before (a mapped type over a type parameter
 * would be inferred from every property of `R`).
 */
type SiteTools<R, S> = string extends S
  ? never
  : [R, S] extends [{ [K in S & string]: infer Tools }, unknown]
    ? Tools
    : never
/** The spec of tool `T` among a site's tools; `never` when the site has no such tool. */
type SpecOf<Tools, T> = T extends keyof Tools ? (Tools[T] extends ToolSpec ? Tools[T] : never) : never
/** The rest of a call of a known site and tool; no call for any other pair. */
type KnownToolRest<R, H, S, T> = [SpecOf<SiteTools<R, S>, T>] extends [never]
  ? NoCall
  : ToolParams<SpecOf<SiteTools<R, S>, T>, H>
/**
 * `runTool` above the d.ts's limit of documented overloads: a known site and tool, else the first documented signature.
 */
export interface RunToolSignature<R, H> {
  // `S` defaults to every site id: an editor completes `runTool('|')` from this signature (the first with a rest)
  // with nothing inferred from the id being typed. `S` follows `T`, which has no default: a checker resolves a
  // call's defaults up to the first type parameter without one (TypeScript 6 `inferTypeArguments`), and `S` first
  // would list the ids at every call.
  <T extends string, S extends string = keyof R & string>(
    siteId: S,
    tool: T,
    ...rest: KnownToolRest<R, H, S, T>
  ): Promise<SpecOf<SiteTools<R, S>, T>['returns']>
  <S extends string, T extends string>(
    siteId: RunToolSite<R, S>,
    tool: RunToolTool<R, S, T>,
    ...rest: RunToolRest<R, S, T>
  ): Promise<unknown>
}
/** The site id of the first `runTool` signature: any id is taken, then checked against the registry's. */
export type RunToolSite<R, S> = S extends keyof R ? S : keyof R & string
/** Its tool name: any name is taken, then checked against the site's tools. */
export type RunToolTool<R, S, T> = S extends keyof R ? (T extends keyof R[S] ? T : keyof R[S]) : string
/** Its rest: no call for a known tool (the tool's own overload answers), any arguments otherwise. */
export type RunToolRest<R, S, T> = S extends keyof R ? (T extends keyof R[S] ? NoCall : unknown[]) : unknown[]

/**
 * `virtual:site-skills` typed by a registry `R`; `H` is what the host passes to Node tools as `ctx`
 * (`SiteSkillsHost` of `unplugin-site-skills/tool`).
 */
export interface TypedSiteSkills<R, H = unknown> {
  /** Metadata of every skill: id, name, domains, note paths and tools (no code). */
  skills: readonly SkillMeta[]
  /** The skills whose domains match the URL's host. */
  siteSkillsForUrl: (url: string | URL) => SkillMeta[]
  /** Notes and tool signatures of the skills for a URL, ready for an agent's prompt. */
  loadLearnedContext: (url: string | URL) => Promise<LearnedContext>
  /** Runs a tool: `(siteId, tool, args, ctx)` for a Node tool, `(siteId, tool, args, target)` for a browser tool. */
  runTool: <S extends keyof R & string, T extends keyof R[S]>(
    siteId: S,
    tool: T,
    ...rest: ToolParams<Spec<R, S, T>, H>
  ) => Promise<Spec<R, S, T>['returns']>
  /** Runs a browser tool in the page of a CDP target. */
  runBrowserTool: <S extends keyof R & string, T extends BrowserToolName<R, S> & string>(
    siteId: S,
    tool: T,
    args: Spec<R, S, T>['args'],
    target: BrowserTarget,
    options?: BrowserRunOptions,
  ) => Promise<Spec<R, S, T>['returns']>
  /** The compiled source of a browser tool: one self-contained function expression. */
  browserToolSource: <S extends keyof R & string, T extends BrowserToolName<R, S> & string>(
    siteId: S,
    tool: T,
  ) => Promise<string>
  /** The notes of a site, in manifest order. */
  loadNotes: (siteId: keyof R & string) => Promise<KnowledgeNote[]>
  /** Tool definitions for the skills of a URL, for MCP, Anthropic and OpenAI tool calling. */
  toolDefinitions: (url: string | URL) => ToolDefinitions
  /** Runs a model's tool call by the name `toolDefinitions` gave it. */
  dispatchToolCall: (name: string, args: ModelArgs, ctxOrTarget?: unknown) => Promise<unknown>
  /** Site id -> tool name -> a stub that runs the tool; each carries the manifest's documentation. */
  sites: {
    [S in keyof R]: {
      [T in keyof R[S]]: <C extends string | undefined = undefined>(
        ...rest: ToolParams<Spec<R, S, T>, H, C>
      ) => Promise<ResultOrPage<C, Spec<R, S, T>['returns']>>
    }
  }
  /** Registers the skills' browser tools as WebMCP tools in the target's pages (see docs/webmcp.md). */
  exposeWebMcpTools: SiteSkills['exposeWebMcpTools']
}

/** Before the first build (empty registry) everything is loosely typed. */
// `Record<never, never> extends R` (R has no member) rather than `keyof R extends never`, which lists every site id.
export type SiteSkillsModule<R, H = unknown> = Record<never, never> extends R ? LooseSiteSkills : TypedSiteSkills<R, H>

/** The untyped API (any site id and tool name): what the runtime itself builds. */
export type LooseSiteSkills = SiteSkills
