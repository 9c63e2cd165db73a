import { existsSync, lstatSync, mkdirSync, realpathSync } from 'node:fs'
import { dirname, join, relative } from 'node:path'
import { fileURLToPath } from 'node:url'
import { displayPath } from '../../compiler/diagnostics/report'
import { modelName } from '../../compiler/validate/collisions'
import { checkDomainPattern } from '../../compiler/validate/domains'
import { toPosix } from '../../compiler/fs/paths'
import { fsReason, isWriteFailure, writeFileInside } from '../../compiler/fs/write-inside'
import { type CliIO, UsageError, writeLine } from '../io'
import { shellWord } from '../call-example'
import { rootsOf } from '../roots'
import type { Root } from '../../compiler/discover/roots'
import { CommandFailure, reportFailure } from '../failure'
import type { Args } from '../command-table'

const NEW_USAGE = 'site-skills new ID --domain DOMAIN [--domain DOMAIN...]'
/** Lowercase words and dashes, at most 128 characters (a model tool name's limit; every file system takes it). */
const ID_RE = /^[a-z0-9][a-z0-9-]{0,127}$/
const SCHEMA_URL = 'https://unpkg.com/unplugin-site-skills/manifest.schema.json'

/** A file's text from its lines, each ending with a newline. */
const lines = (...text: string[]) => text.map((line) => `${line}\n`).join('')

const INSTALLED_SCHEMA = 'node_modules/unplugin-site-skills/manifest.schema.json'

/** The installed package's schema as Node finds a package: in `node_modules` of the folder or of a parent. */
function installedSchema(from: string): string | undefined {
  for (let dir = from; ; dir = dirname(dir)) {
    if (existsSync(join(dir, INSTALLED_SCHEMA))) return join(dir, INSTALLED_SCHEMA)
    if (dirname(dir) === dir) return undefined
  }
}

/**
 * `$schema` for a new manifest: the installed package's file, relative to the skill folder (so a
 * copied skill finds the package of the project it is copied into), else this package's own file
 * when it lies inside the project, else the URL.
 */
function schemaRef(skillDir: string, cwd: string): string {
  const own = [
    fileURLToPath(new URL('../../manifest.schema.json', import.meta.url)),
    fileURLToPath(new URL('../../../manifest.schema.json', import.meta.url)),
  ].find((c) => existsSync(c) && !relative(cwd, c).startsWith('..'))
  const found = installedSchema(dirname(skillDir)) ?? installedSchema(cwd) ?? own
  return found ? toPosix(relative(skillDir, found)) : SCHEMA_URL
}

/** The address of the example page: the first domain's home page (`*.x.com` as `www.x.com`; http for local hosts). */
function exampleUrl(domains: string[]): string {
  const host = domains[0]!.replace(/^\*\./, 'www.')
  const local = host === 'localhost' || /^[\d.]+$/.test(host) || host.startsWith('[')
  return `${local ? 'http' : 'https'}://${host}/`
}

/**
 * A page to run the browser tool on: a fixture, in the format `snapshot` writes, that `site-skills
 * test` serves under the example's url in headless Chromium, and that an agent can serve itself.
 */
function examplePage(name: string, url: string): string {
  const header = { url, captured: 'written by site-skills new: an example page, replace it with a snapshot' }
  return lines(
    '<!-- site-skills fixture',
    JSON.stringify(header, null, 2),
    '-->',
    '<!doctype html>',
    `<html lang="en"><head><meta charset="utf-8"><title>${name}</title></head>`,
    '<body>',
    `  <h1>${name}</h1>`,
    '  <h2>Getting started</h2>',
    '  <p>A page to try the browser tool on: site-skills test runs it here.</p>',
    '  <h2>Next steps</h2>',
    '  <p>Save a real page of the site with site-skills snapshot URL --site ID.</p>',
    '</body></html>',
  )
}

function files(id: string, domains: string[], schema: string): Record<string, string> {
  const name = id.replace(/(^|-)([a-z0-9])/g, (_, dash: string, c: string) => `${dash ? ' ' : ''}${c.toUpperCase()}`)
  const url = exampleUrl(domains)
  const manifest = {
    $schema: schema,
    id,
    name,
    domains,
    notes: ['notes/overview.md'],
    nodeTools: {},
    browserTools: {
      page_headings: {
        description: 'List the headings of the current page with their level and text.',
        path: 'browser-tools/page-headings.js',
        args: {
          maxHeadings: { type: 'integer', required: false, description: 'Most headings to return (default 50).' },
        },
        returns: {
          type: 'array',
          description: 'Headings in document order.',
          items: { type: 'object', properties: { level: { type: 'integer' }, text: { type: 'string' } } },
        },
        examples: [{ name: 'home', args: {}, url, fixture: 'fixtures/home.html', expect: [{ level: 1, text: name }] }],
      },
    },
  }
  return {
    'manifest.json': `${JSON.stringify(manifest, null, 2)}\n`,
    'notes/overview.md': lines(
      `# ${manifest.name}`,
      '',
      `What an agent should know about ${domains.join(', ')}: the main pages and their URLs, stable`,
      'selectors (ids, roles, data attributes), and what to avoid. A map of the site, not a diary of a task.',
    ),
    'fixtures/home.html': examplePage(name, url),
    'browser-tools/page-headings.js': lines(
      'async function (args) {',
      '  const max = Number.isInteger(args.maxHeadings) ? args.maxHeadings : 50',
      "  return [...document.querySelectorAll('h1, h2, h3, h4, h5, h6')]",
      '    .slice(0, max)',
      '    .map((h) => ({ level: Number(h.tagName.slice(1)), text: h.textContent.trim() }))',
      '}',
    ),
  }
}

/** The validate command that checks the new skill: with `--root` when the root was given as one. */
function validateCommandFor(args: Args<'new'>, root: Root, io: CliIO): string {
  if (args.root.length === 0) return 'site-skills validate'
  return `site-skills validate --root ${shellWord(displayPath(root.path, io.cwd, [root]))}`
}

/**
 * An id so long that its model tool names (`<id>__<tool>`, cut to a provider's length) keep no
 * character of the tool's name: every tool of the skill would get one name, a `tool-name-collision`.
 */
function checkToolNameRoom(id: string): void {
  if (modelName(id, 'a') !== modelName(id, 'b')) return
  const cut = modelName(id, 'a').length
  throw new UsageError(
    `skill id ${JSON.stringify(id.slice(0, 20))}... is ${id.length} characters: model tool names are <id>__<tool> ` +
      `cut to ${cut} characters, so every tool of this skill would be named ` +
      `${JSON.stringify(modelName(id, 'a').slice(0, 20))}... ` +
      `(tool-name-collision); use at most ${cut - 3} characters`,
  )
}

/** The checked id and domains of `new`, or a usage error. */
function parseNew(args: Args<'new'>): { id: string; domains: string[] } {
  const [id, ...rest] = args.positionals
  if (!id || rest.length) throw new UsageError(`new takes one skill id: ${NEW_USAGE}`)
  if (!ID_RE.test(id)) {
    const long = id.length > 128
    const shown = long ? `${JSON.stringify(id.slice(0, 60))}... (${id.length} characters)` : JSON.stringify(id)
    const limit = long ? ', at most 128 characters' : ''
    throw new UsageError(`invalid skill id ${shown}: use lowercase letters, digits and dashes${limit} (e.g. "x-com")`)
  }
  checkToolNameRoom(id)
  if (args.domain.length === 0) throw new UsageError('pass at least one --domain (e.g. --domain example.com)')
  const domains = args.domain.map((raw) => {
    const checked = checkDomainPattern(raw)
    const error = checked.problems.find((p) => p.code !== 'domain-unicode')
    if (!error && checked.pattern) return checked.pattern
    if (!error) throw new UsageError(`invalid domain ${JSON.stringify(raw)}`)
    throw new UsageError(error.hint ? `${error.message}. ${error.hint}` : error.message)
  })
  return { id, domains }
}

/**
 * Makes the new skill's folder (its root too, when missing); anything already there, even a dangling symlink, is kept.
 */
function makeSkillFolder(dir: string, shown: string): string {
  let existing: unknown
  try {
    existing = lstatSync(dir, { throwIfNoEntry: false })
  } catch {
    // Not a path that can exist (a file on the way): mkdir says why below.
  }
  if (existing)
    throw new CommandFailure('skill-exists', `${shown} already exists: pick another id, or remove the folder`)
  try {
    mkdirSync(join(dir, '..'), { recursive: true })
    mkdirSync(dir)
    return realpathSync.native(dir)
  } catch (error) {
    throw new CommandFailure('file-unwritable', `cannot create ${shown}: ${fsReason(error)}`)
  }
}

/** `site-skills new ID --domain D`: scaffolds a skill that validates clean. */
export async function newCommand(args: Args<'new'>, io: CliIO): Promise<number> {
  const { id, domains } = parseNew(args)
  try {
    const roots = rootsOf(args, io)
    const root = roots[0]!
    const dir = join(root.path, id)
    const shown = displayPath(dir, io.cwd, roots)
    const realDir = makeSkillFolder(dir, shown)
    for (const [rel, content] of Object.entries(files(id, domains, schemaRef(dir, io.cwd)))) {
      const written = writeFileInside(realDir, rel, content, shown)
      if (isWriteFailure(written)) throw new CommandFailure(written.code, written.message)
    }
    const check = validateCommandFor(args, root, io)
    if (args.json) writeLine(io.stdout, JSON.stringify({ created: toPosix(dir), id, domains }))
    else writeLine(io.stdout, `created ${shown} (validate it with: ${check})`)
    return 0
  } catch (error) {
    return reportFailure(io, error)
  }
}
