/**
 * unplugin-site-skills: the no-build API, with the original ego-lite names too (docs/no-build.md,
 * docs/migration.md), and the plugin's `Options` type. Bundler plugins live in the `./vite`,
 * `./rollup`, `./rolldown`, `./esbuild` and `./webpack` entries. Every name here is listed in
 * test/package/public-names.ts, which a test compares with the built entry and the docs.
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
export type { Options } from './plugin/options'
export { SiteToolError, isSiteToolError, type SiteToolErrorCode } from '../runtime/index'
export type { LearnedContext, LearnedToolSignature } from '../runtime/index'
