import { unplugin } from './plugin/unplugin'

/** The site skills plugin for vite: `plugins: [siteSkills(options)]`. */
export default unplugin.vite
