/**
 * `exposeWebMcpTools` as the runtime exports it: runtime/webmcp.ts (and the page code it
 * registers) is loaded with the first call, so an agent that never exposes tools never loads it.
 */
import type { BrowserTarget } from './cdp'
import { withMessages } from './errors'
import type { ToolCode, WebMcpHandle, WebMcpOptions } from './webmcp'

export type { WebMcpHandle, WebMcpOptions, WebMcpToolRef } from './webmcp'

/**
 * Registers the browser tools of `options.siteSkills` as WebMCP tools (`document.modelContext`) in
 * the target's page and every page it navigates to, where their skills' domains and `urls` match.
 * Each call runs with runBrowserTool's guard, argument checks, timeout and result checks. Fails
 * with `webmcp-unavailable` when the page has no WebMCP (Chromium: `--enable-features=WebMCP`).
 */
export const exposeWebMcpTools: (target: BrowserTarget, options: WebMcpOptions) => Promise<WebMcpHandle> = withMessages(
  async (target: BrowserTarget, options: WebMcpOptions) =>
    (await import('./webmcp')).exposeWebMcpTools(target, options),
)

/** The same, for a registry's own method: with the tools' source maps, so a throw names the tool's line. */
export const exposeWithCode: (target: BrowserTarget, options: WebMcpOptions, code: ToolCode) => Promise<WebMcpHandle> =
  withMessages(async (target: BrowserTarget, options: WebMcpOptions, code: ToolCode) =>
    (await import('./webmcp')).exposeWebMcpTools(target, options, code),
  )
