/**
 * What the package's own host-side code (src/: the CLI, the MCP server, the example runner, codegen)
 * uses from the runtime beyond the public `runtime/index.ts`: the CDP plumbing and a few helpers.
 * Not a package export. src/ imports the runtime only through this file and `runtime/index.ts`
 * (test/package/layers.test.ts fails otherwise).
 *
 * Host-side code has the error catalog loaded up front: its errors' messages are whole at once,
 * even those it reads synchronously (`targetProblem`).
 */
import { errorMessage } from './error-catalog'
import { useMessages } from './errors'

useMessages(errorMessage)

export { argsProblem, resultProblem } from './value-problems'
export { type CdpClient, command, listen } from './cdp'
export { browserUrl, isWsUrl, loadCri, openTarget, parseHostPort, targetProblem } from './connect'
export {
  CURSOR_ARG,
  CURSOR_SCHEMA,
  assignToolNames,
  createToolDefinitions,
  isWholeObject,
  pagesResults,
  type ToolRef,
} from './definitions'
export { type CdpSocket, openSocket } from './socket'
export { isRecord, typeOf } from './text'
export { shownUrl } from './upgrade'
export { compactText } from './compact'
export type { CallRef } from './cursor'
export { DEFAULT_RESULT_BUDGET, estimateTokens, pageResult, resultTokens } from './pages'
export { splitCursor } from './registry'
export { messageOf, siteToolError } from './errors'
export { type LaunchedBrowser, launchBrowser } from './launch'
export {
  createDomainTableData,
  sortKeys,
  urlHost,
  urlMatchesDomains,
} from './match'
export { pickPage } from './pick-page'
export { SITE_SKILLS_EXPORTS } from './registry'
export { BASE64, forEachSegment } from './sourcemap'
export { LOG_PREFIX } from './results'
export { resultJson } from './result-json'
export type { ArgsValidator } from './skill-data'
export { compilePathPattern, urlMatchesPaths } from './urls'
export { webMcpNames, webMcpScript } from './webmcp-script'
