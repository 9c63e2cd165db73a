/**
 * unplugin-site-skills/runtime: what generated code and agents import at run time.
 * Small on purpose; never imports the compiler (esbuild, ajv, unplugin).
 */
export { callBrowserTool, type BrowserCall, type BrowserTarget, type CdpAddress, type CdpSendable } from './browser'
export type { CdpSessionHolder } from './cdp'
export {
  assignToolNames,
  createToolDefinitions,
  type ToolDefinitions,
  type ToolRef,
  type McpToolDefinition,
  type AnthropicToolDefinition,
  type OpenAIToolDefinition,
} from './definitions'
export { isWsUrl, parseHostPort, targetProblem } from './connect'
export { SiteToolError, isSiteToolError, type SiteToolErrorCode } from './errors'
export {
  createDomainTable,
  createDomainTableData,
  lookupHost,
  urlHost,
  urlMatchesDomains,
  type DomainTable,
  type DomainTableData,
} from './match'
export { callNodeTool } from './node'
export { loadUrlPattern, urlMatchesPaths, urlPathname } from './urls'
export {
  createSiteSkills,
  type BrowserRunOptions,
  type LearnedContext,
  type LearnedToolSignature,
  type RegistryData,
  type SiteSkills,
  type SiteSkillsOptions,
  type SkillLoaders,
  type ToolStub,
} from './registry'
export type { ValidateReturns } from './results'
export type * from './types'
export type {
  LooseSiteSkills,
  RunToolRest,
  RunToolSignature,
  RunToolSite,
  RunToolTool,
  SiteSkillsModule,
  ToolOverload,
  ToolParams,
  ToolRegistry,
  ToolSpec,
  TypedSiteSkills,
} from './typed'
