import { unplugin } from './plugin/unplugin'

/** The site skills plugin for rollup: `plugins: [siteSkills(options)]`. */
export default unplugin.rollup
