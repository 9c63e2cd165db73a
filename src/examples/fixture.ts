// The fixture format (header comment, then the page) lives in src/compiler/fixture-format/header.ts,
// which validation reads too; what `snapshot` evaluates in the tab is capture-page.ts.
import { SiteToolError } from '../../runtime/index'
import { type CdpClient, command } from '../../runtime/internal'
import { CAPTURE_EXPRESSION } from './capture-page'

/** The world the page is read in: its own, so that no script of the page runs in it or replaces what it calls. */
const WORLD_NAME = 'site-skills-snapshot'

/** A page as `snapshot` saves it: where the tab was when read, and its cleaned HTML. */
export interface CapturedPage {
  url: string
  html: string
}

/**
 * Reads the tab of `client` with CAPTURE_EXPRESSION, in an isolated world made for it on the main
 * frame: the DOM is the page's, the JavaScript objects (DOMParser, the node methods) are the
 * browser's own, whatever the page did to its own.
 */
export async function capturePage(client: CdpClient): Promise<CapturedPage> {
  const { frameTree } = await command(client, 'Page.getFrameTree')
  const world = await command(client, 'Page.createIsolatedWorld', {
    frameId: frameTree.frame.id,
    worldName: WORLD_NAME,
    grantUniveralAccess: false,
  })
  const { result, exceptionDetails } = await command(client, 'Runtime.evaluate', {
    expression: CAPTURE_EXPRESSION,
    contextId: world.executionContextId,
    returnByValue: true,
  })
  if (exceptionDetails) throw new SiteToolError('cdp-error', `cannot read the page: ${exceptionDetails.text}`)
  return result.value as CapturedPage
}

/** A fixture name from a URL: its last path segment, else its host, as lowercase words joined by "-". */
export function fixtureNameFromUrl(url: string): string {
  const parsed = new URL(url)
  const segment = parsed.pathname.split('/').filter(Boolean).at(-1) ?? parsed.hostname
  const slug = segment
    .replace(/\.html?$/i, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
  return slug.slice(0, 60) || 'page'
}
