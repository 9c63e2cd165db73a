/**
 * What the runtime's lazy chunks (the error catalog, the failure decoder, connecting by address,
 * the Node tool runner, the checks, the learned context and model tool calls, the page URL checks)
 * use of its first load, in one module that each of them imports. A bundler that splits code puts
 * a module in a chunk by the set of entries (the runtime's and each `import()`) that reach it:
 * imported through here, every module the first load shares with a lazy chunk is reached by the
 * same set, so they make one shared chunk, not one chunk per set.
 */
export { copyArgs } from './args'
export { command, heldSession, isSendable, listen } from './cdp'
export { assignToolNames, createToolDefinitions, pagesResults } from './definitions'
export { completed, messageOf, SiteToolError, type SiteToolErrorInit, siteToolError, withMessages } from './errors'
export { urlHost, urlMatchesDomains } from './match'
export { notFoundMessage } from './not-found'
export { DOMAIN_GUARD, LINE0_SHIFT } from './page-code'
export { clip, cycleAt, LOG_PREFIX, q, typeOf } from './text'
export { urlMatchesPaths } from './urls'
