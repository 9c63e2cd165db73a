import { COMPAT_MODES } from '../compiler/compat'
import { type ArgsOf, type CommandSpec, JSON_OUTPUT, type OptionSpec, ROOT } from './options'

/**
 * Every command of `site-skills` and the options it takes: the only list of them. The CLI parses a
 * command's arguments against its own entry (an option of another command is bad usage) and prints
 * its usage and help from it; each command's module is loaded by `src/cli/index.ts` when it runs,
 * and receives `Args<'name'>`, typed from its entry here.
 */

const option = <const O extends OptionSpec>(spec: O) => spec

const COMPAT = {
  compat: option({
    type: 'string',
    value: 'ego-lite',
    choices: COMPAT_MODES,
    help: 'also reject what the original ego-lite runtime cannot load',
  }),
}

/** What `site-skills test` prints on stdout: lines for people, JSON, or JUnit XML for CI. */
export const TEST_REPORTERS = ['text', 'json', 'junit'] as const

/** What every command that reads skills takes: `--root`, `--json`, `--compat`. */
const SKILLS = { ...ROOT, ...JSON_OUTPUT, ...COMPAT }

/** `--cdp` (what it names: `help`) and the headers of its WebSocket upgrade. */
const cdp = (value: string, help: string, required = false) => ({
  cdp: option({ type: 'string', value, help, ...(required ? { required: true as const } : {}) }),
  'cdp-header': option({
    type: 'string',
    multiple: true,
    value: 'NAME:VALUE',
    help: "a header of the --cdp connection (repeatable), such as a fleet's token",
  }),
})

export const COMMANDS = {
  validate: {
    operands: '[DIR...]',
    summary: 'check every skill; exit 1 on any error',
    details: ['A DIR that holds manifest.json is checked as that one skill of its parent folder.'],
    options: SKILLS,
  },
  match: { operands: 'URL...', summary: 'which skills apply to each URL', options: SKILLS },
  context: {
    operands: 'URL',
    summary: 'notes and tool signatures for a URL, as an agent gets them',
    options: {
      ...SKILLS,
      tokens: option({ type: 'boolean', help: 'their tokens per tool, note and skill (needs gpt-tokenizer)' }),
    },
  },
  run: {
    operands: 'SITE TOOL',
    summary: 'run a Node or browser tool',
    options: {
      ...SKILLS,
      args: option({ type: 'string', value: 'JSON', help: "the tool's arguments, a JSON object (default {})" }),
      ...cdp('HOST:PORT|ws(s)://...', 'the browser of a browser tool (and the page of a Node tool)'),
      target: option({
        type: 'string',
        value: 'ID|URL',
        help: 'the tab of a --cdp browser: its id, its URL, or a part of its URL no other tab has',
      }),
      url: option({
        type: 'string',
        value: 'URL',
        help: "the page a Node tool is about (ctx.url, ctx.baseUrl); default: the --target page's",
      }),
      format: option({
        type: 'string',
        value: 'compact|json',
        choices: ['compact', 'json'],
        help: 'print the result as compact text (as agents get it) or as JSON (--json); default: indented JSON',
      }),
    },
  },
  types: {
    summary: 'write the declarations of virtual:site-skills',
    options: {
      ...SKILLS,
      out: option({ type: 'string', value: 'FILE', help: 'where (default site-skills.d.ts; - for stdout)' }),
    },
  },
  check: {
    operands: '[DIR...]',
    summary: 'validate, write the declarations, type-check every tool against its manifest',
    options: {
      ...SKILLS,
      out: option({ type: 'string', value: 'FILE', help: 'where the declarations go (default site-skills.d.ts)' }),
      watch: option({ type: 'boolean', help: 'run again on every change until interrupted' }),
    },
  },
  schema: { summary: 'print the manifest JSON Schema', options: {} },
  new: {
    operands: 'ID',
    summary: 'scaffold a skill that validates clean',
    options: {
      ...ROOT,
      ...JSON_OUTPUT,
      domain: option({
        type: 'string',
        multiple: true,
        required: true,
        value: 'DOMAIN',
        help: 'a domain of the site (repeatable; *.example.com for its subdomains)',
      }),
    },
  },
  test: {
    operands: '[SITE...]',
    summary: "run the tools' examples on their saved pages; exit 1 on any failure",
    options: {
      ...SKILLS,
      live: option({ type: 'boolean', help: 'also on the live pages' }),
      record: option({ type: 'boolean', help: "write each tested skill's verification.json" }),
      ...cdp('HOST:PORT|ws(s)://...', 'run browser examples in that browser (default: a headless Chromium)'),
      workers: option({
        type: 'string',
        value: 'N',
        help: 'examples run at once, each in a browser context of its own (default: the cores, at most 4)',
      }),
      shard: option({ type: 'string', value: 'I/N', help: 'run only part I of N equal parts (1-based, CI matrices)' }),
      reporter: option({
        type: 'string',
        value: 'text|json|junit',
        choices: TEST_REPORTERS,
        help: 'what stdout gets (default text; --json is --reporter json; junit: JUnit XML for CI)',
      }),
    },
  },
  snapshot: {
    operands: 'URL',
    summary: 'save the open tab at URL as a fixture of a skill',
    options: {
      ...SKILLS,
      site: option({ type: 'string', value: 'ID', required: true, help: 'the skill the fixture is for' }),
      name: option({ type: 'string', value: 'NAME', help: "the fixture's name (default: the URL's last segment)" }),
      ...cdp('HOST:PORT|ws(s)://...', 'the browser that has the tab open', true),
    },
  },
  export: {
    operands: '[SITE...]',
    summary: 'one Agent Skills folder per skill in DIR, or a WebMCP browser extension',
    options: {
      ...SKILLS,
      'agent-skills': option({ type: 'boolean', help: 'Agent Skills folders (SKILL.md, scripts/), one per skill' }),
      webmcp: option({
        type: 'boolean',
        help:
          'a Chrome extension (Manifest V3) in DIR that registers the browser tools as WebMCP tools on the ' +
          "skills' pages",
      }),
      out: option({ type: 'string', value: 'DIR', required: true, help: 'the folder to write into' }),
      check: option({ type: 'boolean', help: 'write nothing; exit 1 when DIR differs from what export writes' }),
    },
  },
  mcp: {
    summary: "an MCP server of the skills' tools, run in browser tabs",
    details: [
      'Needs npm i -D @modelcontextprotocol/server @modelcontextprotocol/node gpt-tokenizer. Speaks MCP on stdout ' +
        '(stdio) unless --http.',
    ],
    options: {
      ...ROOT,
      ...COMPAT,
      tools: option({
        type: 'string',
        value: 'page|all|search',
        help: 'which tools are listed (default all within 4,000 tokens, else search)',
      }),
      ...cdp('HOST:PORT|ws(s)://...', 'the browser to use (default: a headless Chromium)'),
      allow: option({ type: 'string', multiple: true, value: 'SITE', help: 'serve only these skills (repeatable)' }),
      deny: option({ type: 'string', multiple: true, value: 'SITE', help: 'never serve these skills (repeatable)' }),
      http: option({ type: 'string', value: 'PORT', help: 'Streamable HTTP on that port, else stdio' }),
      'max-sessions': option({
        type: 'string',
        value: 'N',
        help: 'with --http: the most sessions at once; another initialize gets 503 (default 64)',
      }),
      'session-idle': option({
        type: 'string',
        value: 'SECONDS',
        help: 'with --http: a session with no request open this long is closed (default 1800)',
      }),
      'allow-write': option({
        type: 'string',
        value: 'DIR',
        help: 'authoring tools that write skills below DIR, one of the roots (default: read-only)',
      }),
    },
  },
  pack: {
    operands: '[SITE...]',
    summary: 'an installable skill package of the chosen skills (all by default), after a secret scan',
    details: [
      'Exit 1 with nothing written on a finding of the scan, at file:line:col.',
      'Needs npm i -D @secretlint/core @secretlint/secretlint-rule-preset-recommend.',
    ],
    options: {
      ...SKILLS,
      out: option({ type: 'string', value: 'DIR', required: true, help: 'the folder to write the package in' }),
      name: option({
        type: 'string',
        value: 'NAME',
        help: 'the package name (default site-skills-<id> for one skill, site-skills-pack for several)',
      }),
      'package-version': option({ type: 'string', value: 'VER', help: 'the package version (default 0.0.0)' }),
    },
  },
} as const satisfies Record<string, CommandSpec>

export type CommandName = keyof typeof COMMANDS

/** The arguments of command `N`, typed from its entry. */
export type Args<N extends CommandName> = ArgsOf<(typeof COMMANDS)[N]>

/** Every option any command takes, as written on the command line (`--live`). */
export const KNOWN_OPTIONS: ReadonlySet<string> = new Set(
  Object.values(COMMANDS as Record<string, CommandSpec>).flatMap((c) => Object.keys(c.options).map((o) => `--${o}`)),
)
