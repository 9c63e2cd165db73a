import { unplugin } from './core/unplugin'

/** The site skills plugin for rolldown: `plugins: [siteSkills(options)]`. */
export default unplugin.rolldown
