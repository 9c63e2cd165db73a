/**
 * What the package's own host-side code (src/: the CLI, the MCP server, the example runner, codegen)
 * uses from the runtime beyond the public `runtime/index.ts`: the CDP plumbing and a few helpers.
 * Not a package export. src/ imports the runtime only through this file and `runtime/index.ts`
 * (test/package/layers.test.ts fails otherwise).
 */
export { checkArgs, checkResult } from './check'
export { type CdpClient, type TargetInfo, command, listen } from './cdp'
export { loadCri, openTarget } from './connect'
export { typeOf } from './error-catalog'
export { messageOf, siteToolError } from './errors'
export { type LaunchedBrowser, launchBrowser } from './launch'
export { sortKeys } from './match'
export { BASE64, forEachSegment } from './sourcemap'
export { LOG_PREFIX } from './results'
export { resultJson } from './result-json'
export { compilePathPattern } from './urls'
