import { unplugin } from './plugin/unplugin'

/** The site skills plugin for esbuild: `plugins: [siteSkills(options)]`. */
export default unplugin.esbuild
