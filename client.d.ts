// Fallback types of `virtual:site-skills` for before the first build. The plugin (or
// `site-skills types`) writes site-skills.d.ts, which fills in SiteSkillRegistry.
declare module 'virtual:site-skills' {
  import type { SiteSkillsModule } from 'unplugin-site-skills/runtime'

  /** Site id -> tool name -> { kind, args, returns }; declared by the generated site-skills.d.ts. */
  export interface SiteSkillRegistry {}

  type Api = SiteSkillsModule<SiteSkillRegistry>
  export const skills: Api['skills']
  export const siteSkillsForUrl: Api['siteSkillsForUrl']
  export const loadLearnedContext: Api['loadLearnedContext']
  export const runTool: Api['runTool']
  export const runBrowserTool: Api['runBrowserTool']
  export const browserToolSource: Api['browserToolSource']
  export const loadNotes: Api['loadNotes']
  export const toolDefinitions: Api['toolDefinitions']
  export const dispatchToolCall: Api['dispatchToolCall']
  export const sites: Api['sites']
  const api: Api
  export default api
}
