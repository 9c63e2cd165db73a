import { unplugin } from './plugin/unplugin'

/** The site skills plugin for rolldown: `plugins: [siteSkills(options)]`. */
export default unplugin.rolldown
