import { expect, vi } from 'vitest'
import { join } from 'node:path'
import { type CdpClient, command } from '../../runtime/cdp'
import { isSiteToolError, type SiteToolError, type SiteToolErrorCode } from '../../runtime/errors'
import type { BrowserToolCode } from '../../runtime/skill-data'
import { createBrowserBundler } from '../../src/compiler/bundle/browser-tools'
import { makeTempDir, writeTree } from './tmp'

/** A browser tool to compile: its file inside the skill folder, and whether it is an ES module. */
export interface ToolSpec {
  file: string
  module?: boolean
}

export interface CompiledTool {
  code: BrowserToolCode
  /** Relative to the root, as the runtime reports it (`site/browser-tools/x.js`). */
  file: string
}

/**
 * Writes a skill folder's files into a temp root and compiles the tools with the real bundler.
 * Fails when a tool does not compile.
 */
export async function compileTools(
  siteId: string,
  files: Record<string, string>,
  tools: Record<string, ToolSpec>,
  minify = true,
): Promise<Record<string, CompiledTool>> {
  const { dir, cleanup } = await makeTempDir('browser-tools-')
  try {
    await writeTree(dir, Object.fromEntries(Object.entries(files).map(([path, text]) => [`${siteId}/${path}`, text])))
    const realDir = join(dir, siteId)
    const requests = Object.entries(tools).map(([tool, spec]) => ({
      siteId,
      root: dir,
      tool,
      absPath: join(realDir, spec.file),
      module: spec.module ?? false,
      realDir,
    }))
    const results = await createBrowserBundler({ minify }).bundle(requests)
    const compiled: Record<string, CompiledTool> = {}
    for (const request of requests) {
      const result = results.get(request)
      if (!result?.code) throw new Error(`${request.tool} did not compile: ${JSON.stringify(result?.diagnostics)}`)
      compiled[request.tool] = { code: result.code, file: `${siteId}/${tools[request.tool]!.file}` }
    }
    return compiled
  } finally {
    await cleanup()
  }
}

/** Evaluates an expression in the page's main world and returns its value. */
export async function evaluate(client: CdpClient, expression: string): Promise<unknown> {
  const { result, exceptionDetails } = await command(client, 'Runtime.evaluate', {
    expression,
    returnByValue: true,
    awaitPromise: true,
  })
  if (exceptionDetails)
    throw new Error(`evaluate failed: ${exceptionDetails.exception?.description ?? exceptionDetails.text}`)
  return result.value
}

/** Navigates and waits for the load event. */
export async function navigate(client: CdpClient, url: string): Promise<void> {
  const loaded = new Promise((resolve) => client.once('Page.loadEventFired', resolve))
  await command(client, 'Page.navigate', { url })
  await loaded
}

/** Resolves once the page's title is `title` (after a navigation the test did not start itself). */
export async function waitForTitle(client: CdpClient, title: string, timeoutMs = 10_000): Promise<void> {
  // While the page navigates an evaluation may fail: that is "not yet" too.
  const loaded = async () => {
    const shown = await evaluate(client, 'document.readyState === "complete" && document.title')
    expect(shown, "the loaded page's title").toBe(title)
  }
  await vi.waitFor(loaded, { timeout: timeoutMs, interval: 20 })
}

/** The SiteToolError a promise rejects with, or a thrown Error saying what came instead (a result or another error). */
export async function failure(promise: Promise<unknown>, code: SiteToolErrorCode): Promise<SiteToolError> {
  const error = await promise.then(
    (value) => {
      throw new Error(`expected ${code}, got the result ${JSON.stringify(value)}`)
    },
    (error: unknown) => error,
  )
  if (!isSiteToolError(error, code)) throw new Error(`expected ${code}, got ${String(error)}`, { cause: error })
  return error
}
