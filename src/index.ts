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
export { createCompiler, type CompileResult, type CompiledSkill, type Compiler, type CompilerOptions, type SkillReport } from './core/compiler'
export { DIAGNOSTIC_CATALOG, type Diagnostic, type DiagnosticCode, type Severity } from './core/diagnostics'
export { checkDomainPattern } from './core/domains'
export { generateDts } from './core/codegen/dts'
export { generateMainModule, generateSkillChunk } from './core/codegen/module'
export { manifestSchema } from './core/validate/schema'
export type { Options } from './core/options'
export { SiteToolError, isSiteToolError, type SiteToolErrorCode } from '../runtime/errors'
export type { LearnedContext, LearnedToolSignature } from '../runtime/registry'
