import { SITE_SKILLS_EXPORTS } from '../../runtime/internal'

/**
 * The package's public names: for each entry of package.json "exports", the values and the
 * types it exports, and the pages that document them. The one list of them:
 * test/package/public-names.test.ts fails when a built entry exports a name not listed here (or
 * misses one), when a listed name is not on its pages, and when a page imports a name its entry
 * does not export. Adding an export is adding it here and documenting it on one of the pages.
 */
export interface PublicEntry {
  /** Run-time exports (`default` for a default export). */
  values: readonly string[]
  /** Type-only exports. */
  types: readonly string[]
  /** Where each name is documented (every name is on one of them, and so is the entry's specifier). */
  docs: readonly string[]
}

const plugin = (): PublicEntry => ({ values: ['default'], types: [], docs: ['docs/plugin.md'] })

export const PUBLIC_NAMES: Readonly<Record<string, PublicEntry>> = {
  '.': {
    docs: ['docs/no-build.md', 'docs/migration.md', 'docs/plugin.md'],
    values: [
      'SiteToolError',
      'checkDomainLearningExists',
      'checkLearningExists',
      'closeSiteSkills',
      'dispatchToolCall',
      'findSiteSkill',
      'isSiteToolError',
      'iterLearningDirs',
      'learningsRoot',
      'listSiteSkills',
      'loadBrowserToolSource',
      'loadLearnedContext',
      'runBrowserSiteTool',
      'runNodeSiteTool',
      'siteSkillsForUrl',
      'siteSkillsRoot',
      'toolDefinitionsForUrl',
      'urlHostname',
      'validateLearning',
      'validateLearnings',
      'validateSiteSkills',
      'wrapBrowserTool',
    ],
    types: [
      'DomainLearningCheck',
      'FoundSiteSkill',
      'LearnedContext',
      'LearnedToolSignature',
      'LearningCheck',
      'LearningEntry',
      'ManifestTool',
      'Options',
      'SiteToolErrorCode',
      'SkillsInput',
      'SkillsOptions',
    ],
  },
  './vite': plugin(),
  './rollup': plugin(),
  './rolldown': plugin(),
  './esbuild': plugin(),
  './webpack': plugin(),
  './runtime': {
    docs: ['docs/runtime.md'],
    values: ['SiteToolError', 'createSiteSkills', 'exposeWebMcpTools', 'isSiteToolError', 'loadUrlPattern'],
    types: [
      'AnthropicToolDefinition',
      'BrowserRunOptions',
      'BrowserTarget',
      'BrowserToolCode',
      'CdpAddress',
      'CdpEndpoint',
      'CdpSendable',
      'CdpSessionHolder',
      'DomainTableData',
      'KnowledgeNote',
      'LearnedContext',
      'LearnedToolSignature',
      'Literal',
      'LooseSiteSkills',
      'McpToolDefinition',
      'NodeToolFunction',
      'OpenAIToolDefinition',
      'PageArgs',
      'RegistryData',
      'ResultOrPage',
      'ResultPage',
      'ResultPageInfo',
      'RunToolRest',
      'RunToolSignature',
      'RunToolSite',
      'RunToolTool',
      'SiteSkills',
      'SiteSkillsModule',
      'SiteSkillsOptions',
      'SiteToolErrorCode',
      'SkillChunk',
      'SkillLoaders',
      'SkillMeta',
      'ToolAnnotations',
      'ToolDefinitions',
      'ToolKind',
      'ToolMeta',
      'ToolOverload',
      'ToolParams',
      'ToolRegistry',
      'ToolSpec',
      'ToolStub',
      'TypedSiteSkills',
      'ValidateReturns',
      'ValueSchema',
      'ValueType',
      'VerificationSummary',
      'WebMcpHandle',
      'WebMcpOptions',
      'WebMcpToolRef',
    ],
  },
  './launch': {
    docs: ['docs/runtime.md'],
    values: ['findBrowser', 'launchBrowser'],
    types: ['LaunchOptions', 'LaunchedBrowser', 'LaunchedPage'],
  },
  './tool': {
    docs: ['docs/editor.md'],
    values: ['defineBrowserTool', 'defineNodeTool'],
    types: [
      'BrowserTool',
      'BrowserToolName',
      'NodeTool',
      'NodeToolName',
      'SiteId',
      'SiteSkillsHost',
      'SiteToolArgs',
      'SiteToolResult',
    ],
  },
  './ts-plugin': { docs: ['docs/editor.md'], values: ['default'], types: [] },
  /** The types of `virtual:site-skills`, the module the plugin generates. */
  './client': {
    docs: ['docs/plugin.md'],
    values: [...SITE_SKILLS_EXPORTS, 'default'],
    types: [
      'BrowserTool',
      'NodeTool',
      'SiteSkillRegistry',
      'SiteSkillRunTool',
      'SiteSkillSites',
      'SiteSkillsHost',
      'SiteToolArgs',
      'SiteToolResult',
    ],
  },
  './manifest.schema.json': { docs: ['docs/editor.md'], values: [], types: [] },
  './package.json': { docs: [], values: [], types: [] },
}

/** The module a page imports for an entry: `unplugin-site-skills/runtime`, or the generated module. */
export function specifierOf(entry: string): string {
  if (entry === './client') return 'virtual:site-skills'
  return entry === '.' ? 'unplugin-site-skills' : `unplugin-site-skills/${entry.slice(2)}`
}
