/**
 * unplugin-site-skills: the compiler, and the no-build API with the original ego-lite names.
 * Bundler plugins live in the `./vite`, `./rollup`, `./rolldown`, `./esbuild` and `./webpack` entries.
 */
export {
  closeSiteSkills,
  dispatchToolCall,
  listSiteSkills,
  loadBrowserToolSource,
  loadLearnedContext,
  runBrowserSiteTool,
  runNodeSiteTool,
  siteSkillsForUrl,
  siteSkillsRoot,
  toolDefinitionsForUrl,
  validateSiteSkills,
  wrapBrowserTool,
  type LearningEntry,
  type ManifestTool,
  type SkillsInput,
  type SkillsOptions,
} from './nobuild/api'
export {
  checkDomainLearningExists,
  checkLearningExists,
  findSiteSkill,
  iterLearningDirs,
  learningsRoot,
  urlHostname,
  validateLearning,
  validateLearnings,
  type DomainLearningCheck,
  type FoundSiteSkill,
  type LearningCheck,
} from './nobuild/original'
export {
  createCompiler,
  type CompileResult,
  type CompiledSkill,
  type Compiler,
  type CompilerOptions,
  type SkillReport,
} from './compiler/compile'
export { DIAGNOSTIC_CATALOG, type Diagnostic, type DiagnosticCode, type Severity } from './compiler/diagnostics/catalog'
export { checkDomainPattern } from './compiler/validate/domains'
export { generateDts } from './codegen/dts'
export { generateMainModule, generateSkillChunk } from './codegen/module'
export { manifestSchema } from './compiler/validate/schema'
export type { Options } from './plugin/options'
export { SiteToolError, isSiteToolError, type SiteToolErrorCode } from '../runtime/index'
export type { LearnedContext, LearnedToolSignature } from '../runtime/index'
