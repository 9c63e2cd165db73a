import { unplugin } from './core/unplugin'

/** The site skills plugin for rollup: `plugins: [siteSkills(options)]`. */
export default unplugin.rollup
