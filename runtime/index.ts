/**
 * unplugin-site-skills/runtime: what generated code and agents import at run time.
 * Small on purpose; never imports the compiler (esbuild, ajv, unplugin). Every name here is
 * public and listed in docs/runtime.md; what only the package's own code uses is in `./internal`.
 */
export type { BrowserTarget, CdpAddress, CdpEndpoint, CdpSendable, CdpSessionHolder } from './cdp'
export type {
  AnthropicToolDefinition,
  McpToolDefinition,
  OpenAIToolDefinition,
  ToolDefinitions,
} from './definitions'
export { SiteToolError, isSiteToolError, type SiteToolErrorCode } from './errors'
export { exposeWebMcpTools, type WebMcpHandle, type WebMcpOptions, type WebMcpToolRef } from './expose'
export type { DomainTableData } from './match'
export { loadUrlPattern } from './urls'
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
export type {
  BrowserToolCode,
  KnowledgeNote,
  Literal,
  NodeToolFunction,
  SkillChunk,
  SkillMeta,
  ToolAnnotations,
  ToolKind,
  ToolMeta,
  ValueSchema,
  ValueType,
  VerificationSummary,
} from './types'
export type {
  LooseSiteSkills,
  PageArgs,
  ResultOrPage,
  ResultPage,
  ResultPageInfo,
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
