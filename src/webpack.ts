import { unplugin } from './plugin/unplugin'

/** The site skills plugin for webpack: `plugins: [siteSkills(options)]`. */
export default unplugin.webpack
