import type { CallToolResult, Tool } from '@modelcontextprotocol/server'
import { isSiteToolError } from '../../../runtime/index'
import { messageOf } from '../../../runtime/internal'
import type { BrowserEndpoint } from '../../cdp/endpoint'
import type { Compat } from '../../compiler/compat'
import { openTestBrowser, type TestBrowser } from '../../examples/test-browser'
import type { WatchedSkills } from '../watched-skills'
import type { Tabs } from '../tabs'
import type { AuthorContext, Caller } from './author-context'
import { AUTHOR, AUTHOR_TOOLS } from './defs'
import { createLocks } from './lock'
import { writeNote } from './note'
import { Refusal, refusalResult } from './author-results'
import { snapshot } from './snapshot'
import { cleanStaleStages } from './stage-area'
import { testSkill } from './test'
import { writeTool } from './write-tool'

export { AUTHOR_NAMES } from './defs'

/** The authoring tools of a server started with `--allow-write DIR`. */
interface Authoring {
  tools: readonly Tool[]
  call: (name: string, args: Record<string, unknown> | undefined, caller: Caller) => Promise<CallToolResult>
  close: () => Promise<void>
}

export interface AuthoringOptions {
  dir: string
  roots: readonly string[]
  compat?: Compat
  /** The browser the server uses: its own test runs open tabs there, in contexts no client sees. */
  endpoint: BrowserEndpoint
}

/** What the host gives the authoring tools. */
interface AuthoringHooks {
  skills: WatchedSkills
  tabs: Tabs
  servedName: AuthorContext['servedName']
}

export type AuthoringFactory = (hooks: AuthoringHooks) => Authoring

/** A calling refused because the server was started without `--allow-write`. */
export function readOnlyResult(name: string): CallToolResult {
  return refusalResult(
    new Refusal('read-only', `${name} writes skills: this server is read-only (start it with --allow-write DIR)`),
  )
}

export function authoringFactory(options: AuthoringOptions): AuthoringFactory {
  // What a server killed mid-write left in the stage folder goes before this one writes anything.
  cleanStaleStages(options.dir)
  return (hooks) => {
    let browser: Promise<TestBrowser> | undefined
    const context: AuthorContext = {
      dir: options.dir,
      roots: options.roots,
      compat: options.compat,
      skills: hooks.skills,
      tabs: hooks.tabs,
      servedName: hooks.servedName,
      locked: createLocks(),
      browser: () => {
        browser ??= openTestBrowser(options.endpoint, {
          isolated: true,
          onContext: hooks.tabs.hideContext,
          onContextClosed: hooks.tabs.releaseContext,
        })
        browser.catch(() => (browser = undefined))
        return browser
      },
    }
    return {
      tools: AUTHOR_TOOLS,
      async call(name, args, caller) {
        try {
          if (name === AUTHOR.writeTool) return await writeTool(context, caller, args)
          if (name === AUTHOR.snapshot) return await snapshot(context, caller, args)
          if (name === AUTHOR.test) return await testSkill(context, args)
          return await writeNote(context, args)
        } catch (error) {
          if (error instanceof Refusal) return refusalResult(error)
          if (isSiteToolError(error)) return refusalResult(new Refusal(error.code, error.message))
          return refusalResult(new Refusal('internal-error', messageOf(error)))
        }
      },
      async close() {
        await (await browser?.catch(() => undefined))?.close()
      },
    }
  }
}
