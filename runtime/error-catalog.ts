/**
 * The catalog of the runtime's error codes: each entry's title, hint, and how an error's data
 * becomes its message. Codes are permanent: add new ones, never rename.
 *
 * Not part of the runtime's first load: errors.ts imports it on the first error (host-side code,
 * through internal.ts, loads it up front), so an agent that never fails never downloads it.
 */

import { clip, notFoundMessage, q, typeOf } from './text'

/** One code's entry. */
export interface ErrorEntry<D> {
  title: string
  hint: string
  message: (data: D) => string
}

const entry = <D>(e: ErrorEntry<D>): ErrorEntry<D> => e

/** A failed CDP command, in the words of the client that sent it. */
type Cdp = { cdp: string }
const cdpMessage = (d: Cdp) => `CDP: ${d.cdp}`

/** An argument problem found by a generated validator: path, what was expected, the value given. */
type ArgsProblem = [path: string, expected: string, actual?: unknown]
type ArgsData =
  | { problem: ArgsProblem }
  | { reason: 'not-json' }
  | { reason: 'depth'; max: number }
  | { reason: 'type'; type: string }
  | { reason: 'size'; mib: number }
  | { reason: 'copy'; error: string }

function argsMessage(d: ArgsData): string {
  if ('problem' in d) {
    const [path, expected, actual] = d.problem
    if (expected === 'present') return `missing required argument "${path}"`
    if (expected === 'absent') return `unknown argument "${path}"`
    // An enum names the value given (its type is right, or the type would be the problem).
    const got = expected.startsWith('one of') ? q(actual).slice(0, 80) : typeOf(actual)
    return `argument "${path}" must be ${expected} (got ${got})`
  }
  switch (d.reason) {
    case 'not-json':
      return 'args must be an object (got text that is not JSON)'
    case 'depth':
      return `args are nested deeper than ${d.max} levels`
    case 'type':
      return `args must be an object (got ${d.type})`
    case 'size':
      return `args are larger than ${d.mib} MiB`
    case 'copy':
      return `args cannot be copied: ${d.error}`
  }
}

/** A mismatch found by a generated returns validator: path, what was expected, the value given. */
type ResultProblem = [path: string, expected: string, actual?: unknown]

/** A short picture of a value: JSON for small ones, else its type. */
function shown(v: unknown): string {
  if (v === undefined) return 'undefined'
  try {
    const text = JSON.stringify(v)
    if (text !== undefined && text.length <= 60) return text
  } catch {}
  return typeOf(v)
}

/** The mismatch, then what to do about it (the hint depends on the kind of mismatch). */
function resultMessage([path, expected, actual]: ResultProblem): string {
  const what =
    expected === 'present'
      ? `${path} is missing (got ${shown(actual)})`
      : expected === 'absent'
        ? `${path} is not declared`
        : `${path} must be ${expected} (got ${shown(actual)})`
  const hint =
    actual === null
      ? 'if null is a real answer, mark it "nullable": true'
      : expected === 'absent'
        ? 'declare it, or drop "additionalProperties": false'
        : 'if the site changed, fix the tool; else fix its "returns"'
  return `result does not match the manifest's returns: ${what}. Hint: ${hint}`
}

const TARGET_WORDS = {
  expected:
    'expected ws://..., HOST:PORT or { host, port, target }, or a CDP session (with send) or a page of ' +
    'launchBrowser() (with client)',
  port: 'port must be an integer from 1 to 65535',
  url: 'not a valid ws:// URL',
  host: 'host must be a string',
  headers: 'headers must be an object of header names (letters, digits, -) to text without line breaks',
} as const

type UnavailableData =
  | { missing: 'target' | 'node-tools' | 'chrome' }
  | { module: string }
  | { start: string; log: string }

const UNAVAILABLE_WORDS = {
  target: 'a browser tool needs a CDP target (client, session, {host, port} or ws URL)',
  'node-tools': 'Node tools are not included in a browser build',
  chrome: 'no Chrome or Chromium found: set CHROME_PATH or install chromium (or @sparticuz/chromium)',
} as const

type DisconnectedData =
  | Cdp
  | { reach: string }
  | { notDevtools: string }
  | { connect: string }
  | { lost: string; attempts: number }

function disconnectedMessage(d: DisconnectedData): string {
  if ('cdp' in d) return cdpMessage(d)
  if ('reach' in d) return `cannot reach ${clip(d.reach)}`
  if ('notDevtools' in d)
    return `${clip(d.notDevtools)} is not a DevTools endpoint (its /json/version names no browser)`
  if ('connect' in d) return `cannot connect to ${clip(d.connect)}`
  return `lost the connection to ${clip(d.lost)} and could not reconnect in ${d.attempts} attempts`
}

function unavailableMessage(d: UnavailableData): string {
  if ('module' in d) return `cannot load ${clip(d.module)}`
  if ('start' in d) return `the browser did not start (${d.start})${d.log ? `:\n${d.log}` : ''}`
  return UNAVAILABLE_WORDS[d.missing]
}

export const SITE_TOOL_ERRORS = {
  'skill-not-found': entry<{ known?: readonly string[] }>({
    title: 'No such skill',
    hint: 'Use a skill id from the build (see `site-skills match URL`).',
    message: (d) => notFoundMessage('skill-not-found', d),
  }),
  'skill-invalid': entry<{ where: string; problem: string }>({
    title: 'Invalid skill',
    hint:
      'Run `site-skills validate` (or validateSiteSkills()) for every problem of the skill; its tools run once ' +
      'it is valid.',
    message: (d) => `site skill is invalid: ${d.where} ${d.problem}`,
  }),
  'tool-not-found': entry<{ known: readonly string[] } | { name: string }>({
    title: 'No such tool',
    hint: 'Use a tool the skill declares, or a model tool name from toolDefinitions(url).',
    message: (d) => notFoundMessage('tool-not-found', d),
  }),
  'tool-kind': entry<{ called: 'browser' | 'source' }>({
    title: 'Wrong kind of tool',
    hint: 'Run Node tools with runTool and browser tools with runBrowserTool.',
    message: (d) => (d.called === 'browser' ? 'is a Node tool; call runTool' : 'is a Node tool, not a browser tool'),
  }),
  'invalid-args': entry<ArgsData>({
    title: 'Invalid arguments',
    hint: 'Pass a plain JSON object that matches the tool\'s "args".',
    message: argsMessage,
  }),
  'invalid-result': entry<Cdp | { json: string } | { problem: ResultProblem }>({
    title: 'Invalid result',
    hint:
      'Return JSON data (no DOM nodes, functions or cycles) that matches the tool\'s "returns"; ' +
      'if the site changed, fix the tool, or the manifest ("nullable", "required").',
    message: (d) =>
      'cdp' in d ? cdpMessage(d) : 'json' in d ? `the result is not JSON data: ${d.json}` : resultMessage(d.problem),
  }),
  'invalid-cursor': entry<{ reason: 'malformed' } | { reason: 'other-call' } | { reason: 'stale'; what: string }>({
    title: 'Invalid cursor',
    hint:
      'Pass the cursor of the last page (pageInfo.cursor) with the same arguments, or call without a cursor to ' +
      'start again.',
    message: (d) =>
      d.reason === 'malformed'
        ? 'argument "cursor" is not a cursor this tool gave (pass pageInfo.cursor as it is)'
        : d.reason === 'other-call'
          ? 'argument "cursor" belongs to another call: a cursor continues the call of the same tool with the same ' +
            'arguments'
          : `the result changed since the cursor was given: ${d.what}`,
  }),
  'tool-threw': entry<{ thrown: string } | { message: string }>({
    title: 'The tool threw',
    hint: "The error's file and line point at the tool's own code.",
    message: (d) => ('thrown' in d ? `threw ${clip(d.thrown)}` : d.message),
  }),
  timeout: entry<Cdp | { within: number } | { after: number }>({
    title: 'Timed out',
    hint: 'Raise the tool\'s "timeoutMs", or make it finish sooner.',
    message: (d) =>
      'cdp' in d
        ? cdpMessage(d)
        : 'within' in d
          ? `did not finish within ${d.within} ms`
          : `timed out after ${d.after} ms`,
  }),
  'navigation-timeout': entry<{ url: string; ms: number }>({
    title: 'The page did not load',
    hint:
      'Check that the page loads in a browser; SITE_SKILLS_NAVIGATION_TIMEOUT_MS sets how long site-skills mcp ' +
      'waits (30 s).',
    message: (d) => `${clip(d.url)} did not load within ${d.ms} ms`,
  }),
  'never-settled': entry<object>({
    title: 'Never settled',
    hint: 'Settle every promise the tool returns, and set its "timeoutMs".',
    message: () => 'returned a promise that nothing is left to settle',
  }),
  'domain-mismatch': entry<{ url: unknown; patterns: string }>({
    title: "Page is not on the skill's domains",
    hint: 'Navigate the page to a site the skill declares in "domains" first.',
    message: (d) => `refused to run on ${clip(String(d.url))}: it does not match ${clip(d.patterns)}`,
  }),
  'url-mismatch': entry<{ url: unknown; patterns: string }>({
    title: 'Page is not on the paths the tool is for',
    hint: 'Navigate the tab to a page the skill and the tool declare in "urls" first.',
    message: (d) => `refused to run on ${clip(String(d.url))}: its path does not match ${clip(d.patterns)}`,
  }),
  'url-pattern-unavailable': entry<{ pattern: string }>({
    title: 'URLPattern is missing',
    hint:
      'On Node < 23.8 await loadUrlPattern() from "unplugin-site-skills/runtime" before matching (generated ' +
      'modules do).',
    message: (d) => `cannot match ${q(d.pattern)}: this runtime has no URLPattern and the polyfill is not loaded`,
  }),
  'context-lost': entry<Cdp>({
    title: 'The page navigated',
    hint: 'Call the tool again once the page has loaded.',
    message: cdpMessage,
  }),
  'page-crashed': entry<{ earlier?: boolean }>({
    title: 'The page crashed',
    hint: 'Reload the tab, then call the tool again.',
    message: (d) => `the page crashed ${d.earlier ? 'before the call (reload it)' : 'during the call'}`,
  }),
  disconnected: entry<DisconnectedData>({
    title: 'Browser not reachable',
    hint:
      'Start the browser with --remote-debugging-port and pass that address (a fleet: check that its session ' +
      'is still running).',
    message: disconnectedMessage,
  }),
  'rate-limited': entry<{ endpoint: string; status: number; attempts: number; askedMs?: number }>({
    title: 'Browser endpoint busy',
    hint: 'The endpoint limits how many browsers run at once: end other sessions, or try again later.',
    message: (d) =>
      d.askedMs === undefined
        ? `${clip(d.endpoint)} answered HTTP ${d.status} (busy) to ${d.attempts} attempts in a row`
        : `${clip(d.endpoint)} answered HTTP ${d.status} (busy) and asks to wait ${Math.ceil(d.askedMs / 1000)} s, ` +
          `longer than the 60 s waited at most`,
  }),
  'endpoint-refused': entry<{ endpoint: string; status: number }>({
    title: 'Browser endpoint refused',
    hint:
      "Check the endpoint's URL and its token: in the URL, or as a header (--cdp-header NAME:VALUE, the " +
      "runtime's headers).",
    message: (d) =>
      `${clip(d.endpoint)} refused the WebSocket upgrade with HTTP ` +
      `${d.status}${d.status === 401 || d.status === 403 ? ' (not authorized: a missing or wrong token?)' : ''}`,
  }),
  'browser-disconnected': entry<{ where: string }>({
    title: 'The browser is gone',
    hint: 'Start the browser again (with --remote-debugging-port), then the server.',
    message: (d) => `the browser at ${clip(d.where)} closed its connection: its tabs are gone`,
  }),
  'dialog-blocking': entry<{ type: string; text: string }>({
    title: 'A dialog blocked the page',
    hint: 'The dialog was dismissed; avoid alert, confirm and prompt in browser tools.',
    message: (d) => `opened a ${d.type} dialog (${q(d.text)}) that blocks the page; dismissed it`,
  }),
  'target-not-found': entry<{ target: string; where: string }>({
    title: 'No such page',
    hint: 'Pass a target id or a substring of the URL of an open page.',
    message: (d) => `no page ${q(d.target)} at ${clip(d.where)}`,
  }),
  'target-ambiguous': entry<{ target: string; candidates: readonly string[]; count: number }>({
    title: 'Several pages match',
    hint: 'Pass the whole URL of the page, or its target id.',
    message: (d) =>
      `${q(d.target)} is in the URL of ${d.count} open pages and is none of them: ${clip(d.candidates.join(', '))}` +
      (d.count > d.candidates.length ? ` and ${d.count - d.candidates.length} more` : ''),
  }),
  'invalid-target': entry<{ shown: string; why: keyof typeof TARGET_WORDS }>({
    title: 'Invalid CDP target',
    hint: 'Pass a CDP client or session, { host, port, target }, a ws:// URL or "HOST:PORT".',
    message: (d) => `bad CDP target ${clip(d.shown)}: ${TARGET_WORDS[d.why]}`,
  }),
  unavailable: entry<UnavailableData>({
    title: 'Not available here',
    hint: 'Install what the message names, or call the tool where it can run.',
    message: unavailableMessage,
  }),
  'webmcp-unavailable': entry<{ url: string }>({
    title: 'WebMCP is off in this browser',
    hint: 'Start Chromium 150 or later with --enable-features=WebMCP (pages need https or localhost).',
    message: (d) =>
      `${clip(d.url)} has no document.modelContext: this browser does not offer WebMCP (start it with ` +
      `--enable-features=WebMCP)`,
  }),
  'webmcp-conflict': entry<{ name: string; reason: string }>({
    title: 'The page holds a WebMCP tool of that name',
    hint: 'The page registered a tool of the same name first; reload it (new documents register ours first).',
    message: (d) => `cannot register the WebMCP tool ${q(d.name)}: ${clip(d.reason)}`,
  }),
  'cdp-error': entry<Cdp>({
    title: 'CDP command failed',
    hint: 'The browser refused a command; the cause holds its own error.',
    message: cdpMessage,
  }),
  'package-missing': entry<{ name: string; from: string }>({
    title: 'Skill package not installed',
    hint: 'Install the package (npm i -D NAME), or write ./NAME for a folder of that name.',
    message: (d) => `package ${q(d.name)} is not installed (looked in node_modules from ${q(d.from)} up)`,
  }),
  'package-invalid': entry<{ name: string; reason: string }>({
    title: 'Package is no skill package',
    hint: 'A skill package names its folder of skill folders in package.json: "siteSkills": { "root": "learnings" }.',
    message: (d) => `package ${q(d.name)}: ${d.reason}`,
  }),
  'root-missing': entry<{ root: string; error?: string }>({
    title: 'Root not found',
    hint: 'Create the folder, or pass the folder that holds your skill folders ({ root }, --root).',
    message: (d) =>
      d.error ? `cannot read the learnings folder ${q(d.root)}: ${d.error}` : `no learnings folder at ${q(d.root)}`,
  }),
}

/** Stable codes of every error the runtime throws. Never renamed; new ones are added. */
export type SiteToolErrorCode = keyof typeof SITE_TOOL_ERRORS
/** What an error of `C` says, as its entry's `message` takes it. */
export type SiteToolErrorData<C extends SiteToolErrorCode> = Parameters<(typeof SITE_TOOL_ERRORS)[C]['message']>[0]

/** The message of an error of `code`, in its catalog entry's words. */
export function errorMessage<C extends SiteToolErrorCode>(code: C, data: SiteToolErrorData<C>): string {
  return (SITE_TOOL_ERRORS[code] as ErrorEntry<SiteToolErrorData<C>>).message(data)
}
