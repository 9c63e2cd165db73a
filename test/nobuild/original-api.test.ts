import { execFile } from 'node:child_process'
import { mkdir, symlink, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  checkDomainLearningExists,
  checkLearningExists,
  closeSiteSkills,
  findSiteSkill,
  isSiteToolError,
  iterLearningDirs,
  learningsRoot,
  loadBrowserToolSource,
  loadLearnedContext,
  runNodeSiteTool,
  siteSkillsForUrl,
  siteSkillsRoot,
  urlHostname,
  validateLearning,
  validateLearnings,
  validateSiteSkills,
} from '../../src/index'
import { REPO_ROOT, makeTempDir, writeTree } from '../helpers/tmp'
import { caught } from '../helpers/caught'

/**
 * The cases of the original's own learning tests (ego-lite index.test.mjs on main, the 1.3
 * release line and PRs #148 and #239; validate and domain tests of PRs #48 and #154), said again
 * in our words, plus the rest of the original's API.
 */

let tmp: Awaited<ReturnType<typeof makeTempDir>>
let count = 0
beforeAll(async () => {
  tmp = await makeTempDir('original-api-')
  await writeFile(join(tmp.dir, 'package.json'), '{ "type": "module" }\n')
})
afterAll(async () => {
  closeSiteSkills()
  await tmp.cleanup()
})

const ret = (type: string, description: string) => ({ type, description })
/** JSON.parse's message for a text. */
function caughtParse(text: string): string {
  try {
    JSON.parse(text)
    return ''
  } catch (error) {
    return (error as Error).message
  }
}

/** A fresh root holding the given files (a new root per case, as the original's tests do). */
async function rootWith(files: Record<string, unknown>): Promise<string> {
  const root = join(tmp.dir, `root-${++count}`)
  await mkdir(root, { recursive: true })
  await writeTree(root, files)
  return root
}

const example = {
  id: 'example',
  name: 'Example',
  domains: ['example.com'],
  notes: ['notes/overview.md'],
  nodeTools: {
    read_items: {
      description: 'Read items.',
      path: 'tools/read-items.js',
      callable: 'readItems',
      args: { limit: { type: 'integer', required: false, description: 'At most this many.' } },
      returns: ret('array', 'The items.'),
    },
  },
  browserTools: {
    active_item: {
      description: 'Read the active item.',
      path: 'browser-tools/active-item.js',
      args: {},
      returns: ret('object', 'The active item.'),
    },
  },
}
const exampleFiles = {
  'example/manifest.json': example,
  'example/notes/overview.md': '# Example\n',
  'example/tools/read-items.js': 'export async function readItems() { return ["ok"] }\n',
  'example/browser-tools/active-item.js': 'async () => ({ active: true })\n',
}

describe("the original's runtime cases", () => {
  it('context lists the declared returns of Node and browser tools', async () => {
    const root = await rootWith(exampleFiles)
    const context = await loadLearnedContext('https://example.com', { root })
    expect(context.exists).toBe(true)
    const returnsOf = (name: string) => context.tools.find((t) => t.toolName === name)?.returns
    expect(returnsOf('read_items')).toEqual(ret('array', 'The items.'))
    expect(returnsOf('active_item')).toEqual(ret('object', 'The active item.'))
  })

  it('runs a Node tool and gives a bare browser tool back as its own text', async () => {
    const root = await rootWith(exampleFiles)
    expect(await runNodeSiteTool('example', 'read_items', {}, {}, { root })).toEqual(['ok'])
    const source = await loadBrowserToolSource('example', 'active_item', { root })
    expect(source).toBe('async () => ({ active: true })\n')
  })

  it('a browser tool file without a final newline gets one, so a trailing comment stays harmless', async () => {
    const tool = { 'example/browser-tools/active-item.js': 'async () => 1 // done' }
    const root = await rootWith({ ...exampleFiles, ...tool })
    expect(await loadBrowserToolSource('example', 'active_item', { root })).toBe('async () => 1 // done\n')
  })

  it('runs the tools of a skill written before returns was required; validation still names it', async () => {
    const { returns: _node, ...readItems } = example.nodeTools.read_items
    const { returns: _browser, ...activeItem } = example.browserTools.active_item
    const older = { ...example, nodeTools: { read_items: readItems }, browserTools: { active_item: activeItem } }
    const root = await rootWith({ ...exampleFiles, 'example/manifest.json': older })
    expect(await runNodeSiteTool('example', 'read_items', {}, {}, { root })).toEqual(['ok'])
    expect(await loadBrowserToolSource('example', 'active_item', { root })).toBe('async () => ({ active: true })\n')
    const context = await loadLearnedContext('https://example.com', { root })
    expect(context.tools.map((t) => t.returns)).toEqual([null, null])
    expect(await validateLearning(join(root, 'example'))).toEqual([
      'example: nodeTools.read_items: returns must be an object',
      'example: browserTools.active_item: returns must be an object',
    ])
  })

  it('refuses a tool path that leaves the skill folder, in the original runtime words', async () => {
    const outside = { ...example.browserTools.active_item, path: '../outside.js' }
    const escaping = { ...example, browserTools: { active_item: outside } }
    const root = await rootWith({ ...exampleFiles, 'example/manifest.json': escaping })
    const error = await caught(loadBrowserToolSource('example', 'active_item', { root }))
    expect(isSiteToolError(error, 'skill-invalid')).toBe(true)
    const [where, message] = String((error as Error).message).split(/(?<=:\d+:\d+) /)
    expect(where).toMatch(/^example: site skill is invalid: example\/manifest\.json:\d+:\d+$/)
    expect(message).toBe('browser tool path must be relative to the site skill directory')
  })

  it('product-scoped prompt.md notes and functions.js tools validate and load', async () => {
    const returns = ret('object', 'It.')
    const read = { description: 'Read it.', path: 'docs/functions.js', callable: 'readDocument', args: {}, returns }
    const manifest = { ...example, notes: ['docs/prompt.md'], nodeTools: { read_document: read }, browserTools: {} }
    const root = await rootWith({
      'example/manifest.json': manifest,
      'example/docs/prompt.md': '# Docs\n\nUse the helpers.\n',
      'example/docs/functions.js': 'export async function readDocument() { return { title: "t" } }\n',
    })
    expect(await validateLearning(join(root, 'example'))).toEqual([])
    const context = await loadLearnedContext('https://example.com', { root })
    expect(context.knowledge).toEqual([
      { siteId: 'example', fileName: 'prompt.md', content: '# Docs\n\nUse the helpers.\n' },
    ])
    expect(await runNodeSiteTool('example', 'read_document', {}, {}, { root })).toEqual({ title: 't' })
  })
})

describe('urlHostname and matching', () => {
  it('reads the host of URLs and bare host names like the original', () => {
    expect(urlHostname('https://GitHub.com/foo/bar')).toBe('github.com')
    expect(urlHostname('github.com')).toBe('github.com')
    expect(urlHostname('https://example.com.')).toBe('example.com')
    expect(urlHostname('sub.example.com/path?q=1')).toBe('sub.example.com')
    expect(urlHostname('')).toBe('')
    expect(urlHostname('::::')).toBe('')
  })

  it('matches exact and wildcard patterns, never the apex of a wildcard, and skips a broken manifest', async () => {
    const root = await rootWith({
      'broken/manifest.json': '{ not json',
      'example/manifest.json': { id: 'example', name: 'Example', domains: ['*.example.com'], notes: [] },
      'github/manifest.json': { id: 'github', name: 'GitHub', domains: ['github.com'], notes: [] },
    })
    expect((await siteSkillsForUrl('https://github.com/x', { root })).map((e) => e.id)).toEqual(['github'])
    expect((await siteSkillsForUrl('https://sub.example.com', { root })).map((e) => e.id)).toEqual(['example'])
    expect(await siteSkillsForUrl('https://example.com', { root })).toEqual([])
    expect(await siteSkillsForUrl('', { root })).toEqual([])
    const miss = await loadLearnedContext('https://nowhere.test', { root })
    expect(miss).toMatchObject({ exists: false, siteId: null, siteName: null, knowledge: [], tools: [] })
    const hit = await loadLearnedContext('https://github.com/x', { root })
    expect(hit).toMatchObject({ exists: true, siteId: 'github', siteName: 'GitHub' })
  })

  it('checkDomainLearningExists takes a URL or a bare host', async () => {
    const root = await rootWith(exampleFiles)
    const hit = await checkDomainLearningExists('Example.com', { root })
    expect(hit).toMatchObject({ exists: true, hostname: 'example.com', root })
    expect(hit.matches.map((m) => m.id)).toEqual(['example'])
    const other = await checkDomainLearningExists('https://other.org/x', { root })
    expect(other).toEqual({ exists: false, hostname: 'other.org', root, matches: [] })
    const blank = await checkDomainLearningExists('about:blank', { root })
    expect(blank).toEqual({ exists: false, hostname: '', root, matches: [] })
  })
})

/** One skill folder under a fresh root; returns the folder. */
async function site(id: string, manifest: unknown, files: Record<string, string> = {}): Promise<string> {
  const own = Object.fromEntries(Object.entries(files).map(([path, text]) => [`${id}/${path}`, text]))
  const root = await rootWith({ [`${id}/manifest.json`]: manifest, ...own })
  return join(root, id)
}

const pack = (browserTool: string) =>
  site('example', { ...example, notes: [], nodeTools: {} }, { 'browser-tools/active-item.js': browserTool })

describe('validateLearning, in the original words', () => {
  it('accepts function expressions and arrows; reports a tool that does not parse or is no function', async () => {
    expect(await validateLearning(await pack('async function(args) { return { ok: true }; }\n'))).toEqual([])
    expect(await validateLearning(await pack('async (args) => ({ ok: true })\n'))).toEqual([])
    const broken = await validateLearning(await pack('async function(args) { return oops(( }\n'))
    expect(broken).toHaveLength(1)
    expect(broken[0]).toMatch(/^example: cannot parse "browser-tools\/active-item\.js": /)
    const object = await validateLearning(await pack('({ run: (args) => args })\n'))
    expect(object).toEqual(['example: "browser-tools/active-item.js" must contain a single function expression'])
  })

  it('names id, name, domain, note and path problems as the original does', async () => {
    const domains = ['bad/domain', 'localhost:8080']
    const bad = await site('site', { id: 'wrong-id', name: '   ', domains, notes: ['../secrets.md', 'docs/x.md'] })
    expect(await validateLearning(bad)).toEqual([
      'site: manifest id must match directory name',
      'site: name must be a non-empty string',
      'site: invalid domain "bad/domain"',
      'site: invalid domain "localhost:8080"',
      'site: notes must point to notes/*.md: "../secrets.md"',
      'site: notes must point to notes/*.md: "docs/x.md"',
    ])
    const empty = await site('site', { id: 'site', name: 'Site', domains: [] })
    expect(await validateLearning(empty)).toEqual(['site: domains must not be empty'])
    const grab = { description: 'grab', path: '../escape.js', callable: 'run', args: {}, returns: ret('string', 'x') }
    const escaping = await site('site', { id: 'site', name: 'Site', domains: ['site.com'], nodeTools: { grab } })
    expect(await validateLearning(escaping)).toEqual(['site: nodeTools.grab: path must be a relative tools/*.js path'])
  })

  it("keeps the original order: a tool map's schemas before its files, Node tools before browser tools", async () => {
    const n = { type: 'int', required: 'yes', description: 'N.' }
    const manifest = {
      id: 'pack',
      name: 'Pack',
      domains: ['pack.example'],
      notes: ['notes/a.md', 'notes/gone.md'],
      browserTools: { bt: { description: 'B.', path: 'tools/b.js', args: {}, returns: ret('object', 'B.') } },
      nodeTools: {
        good: { description: 'G.', path: 'tools/good.js', callable: 'nope', args: {}, returns: ret('object', 'G.') },
        bare: { description: '', path: 'tools/bare.js', callable: 'bare', args: { n }, returns: ret('object', 'B.') },
      },
    }
    const files = {
      'notes/a.md': 'Click @21 to open it.\nThen @22.\n',
      'tools/good.js': 'export const good = () => 1\n',
    }
    const dir = await site('pack', manifest, files)
    expect(await validateLearning(dir)).toEqual([
      'pack: note "notes/a.md": contains temporary snapshot ref; use stable locators instead',
      'pack: missing note "notes/gone.md"',
      'pack: nodeTools.bare: description must be a non-empty string',
      'pack: nodeTools.bare.args.n: invalid arg type "int"',
      'pack: nodeTools.bare.args.n: required must be a boolean',
      'pack: missing Node callable "nope" for tool "good"',
      'pack: missing Node tool file "tools/bare.js" for tool "bare"',
      'pack: browserTools.bt: path must be a relative browser-tools/*.js path',
    ])
  })

  it("gives JSON.parse's and readFile's errors for a broken or missing manifest, one for a non-object", async () => {
    const dir = await site('broken', '{ "id": "broken", }')
    let parseError = ''
    try {
      JSON.parse('{ "id": "broken", }')
    } catch (error) {
      parseError = (error as Error).message
    }
    expect(await validateLearning(dir)).toEqual([`broken: invalid or missing manifest.json: ${parseError}`])
    const missing = join(dir, '..', 'empty')
    await mkdir(missing)
    const enoent = `ENOENT: no such file or directory, open '${join(missing, 'manifest.json')}'`
    expect(await validateLearning(missing)).toEqual([`empty: invalid or missing manifest.json: ${enoent}`])
    const list = await site('site', '[1, 2, 3]')
    expect(await validateLearning(list)).toEqual(['site: manifest.json must contain a JSON object'])
    // Two syntax errors (validate reports both): the original's one JSON.parse message, once.
    const twice = '{ "id": "twice" "name": [tru] }'
    const two = await site('twice', twice)
    expect(await validateLearning(two)).toEqual([`twice: invalid or missing manifest.json: ${caughtParse(twice)}`])
  })

  it('validates a folder the scan leaves out (_template) when asked for it by path', async () => {
    const dir = await site('_template', { id: '_template', name: '', domains: ['t.example'] })
    expect(await validateLearning(dir)).toEqual(['_template: name must be a non-empty string'])
    expect(await validateLearnings(join(dir, '..'))).toEqual([])
  })

  it('validateLearnings and validateSiteSkills are the same list, folder by folder', async () => {
    const root = await rootWith({
      ...exampleFiles,
      'a-bad/manifest.json': { id: 'a-bad', name: 'A', domains: [] },
      'stray/notes.txt': 'not a skill',
    })
    const enoent = `ENOENT: no such file or directory, open '${join(root, 'stray/manifest.json')}'`
    const expected = ['a-bad: domains must not be empty', `stray: invalid or missing manifest.json: ${enoent}`]
    expect(await validateLearnings(root)).toEqual(expected)
    expect(await validateSiteSkills(root)).toEqual(expected)
    expect(await validateLearning(join(root, 'example'))).toEqual([])
  })
})

describe('finding skills and folders', () => {
  it('findSiteSkill gives the folder and the parsed manifest, or says where it looked', async () => {
    const root = await rootWith(exampleFiles)
    expect(await findSiteSkill('example', { root })).toEqual({ siteDir: join(root, 'example'), manifest: example })
    const error = await caught(findSiteSkill('nope', { root }))
    expect(isSiteToolError(error, 'skill-not-found') && error.message.split('\n')).toEqual([
      'nope: site skill not found: "nope"',
      `  searched: ${root}`,
      `  EGO_BROWSER_AGENT_WORKSPACE: ${process.env.EGO_BROWSER_AGENT_WORKSPACE ?? 'unset'}`,
      '  hint: ensure your write path begins with the searched root above',
    ])
  })

  it('checkLearningExists looks for the manifest of a folder name, never outside the root', async () => {
    const root = await rootWith({ ...exampleFiles, 'empty/.keep': '' })
    const siteDir = join(root, 'example')
    const manifestPath = join(siteDir, 'manifest.json')
    expect(await checkLearningExists('example', { root })).toEqual({ exists: true, root, siteDir, manifestPath })
    expect((await checkLearningExists('empty', { root })).exists).toBe(false)
    expect((await checkLearningExists('../root-1/example', { root })).exists).toBe(false)
  })

  it('checkLearningExists and checkDomainLearningExists answer exists: false before the root is created', async () => {
    const root = join(tmp.dir, 'not-yet')
    expect(await checkLearningExists('example', root)).toMatchObject({ exists: false, root })
    expect(await checkDomainLearningExists('example.com', { root })).toEqual({
      exists: false,
      hostname: 'example.com',
      root,
      matches: [],
    })
  })

  it('learningsRoot is siteSkillsRoot, and iterLearningDirs lists skill folders in name order', async () => {
    expect(learningsRoot('/ws')).toBe('/ws/learnings')
    expect(learningsRoot('/ws')).toBe(siteSkillsRoot('/ws'))
    const root = await rootWith({ 'b/x': '', 'a/x': '', '_template/x': '', 'file.txt': '' })
    expect(await iterLearningDirs(root)).toEqual([join(root, 'a'), join(root, 'b')])
    expect(await iterLearningDirs({ root })).toEqual([join(root, 'a'), join(root, 'b')])
    // Not the original's []: a mistyped root must not read as "no skills".
    const missing = await caught(iterLearningDirs(join(root, 'missing')))
    expect(isSiteToolError(missing, 'root-missing')).toBe(true)
  })
})

describe('through the installed package', () => {
  it('a script moving from the original calls the API by its names and exits', async () => {
    const bad = { id: 'bad', name: 'Bad', domains: [] }
    const root = await rootWith({ ...exampleFiles, 'bad/manifest.json': bad })
    await mkdir(join(tmp.dir, 'node_modules'), { recursive: true })
    await symlink(REPO_ROOT, join(tmp.dir, 'node_modules/unplugin-site-skills'))
    const script = join(tmp.dir, 'agent.mjs')
    await writeFile(
      script,
      [
        "import * as learning from 'unplugin-site-skills'",
        'const root = process.argv[2]',
        'const out = {',
        '  errors: await learning.validateLearnings(root),',
        "  one: await learning.validateLearning(root + '/example'),",
        "  found: (await learning.findSiteSkill('example', { root })).manifest.id,",
        "  domain: (await learning.checkDomainLearningExists('example.com', { root })).exists,",
        "  result: await learning.runNodeSiteTool('example', 'read_items', {}, {}, { root }),",
        '}',
        // Until one-shot calls stop watching (issue 9, item 1), the script closes the sessions itself.
        'learning.closeSiteSkills()',
        'console.log(JSON.stringify(out))',
      ].join('\n'),
    )
    const started = Date.now()
    const run = await new Promise<{ code: number | null; stdout: string; stderr: string }>((done) => {
      const child = execFile(process.execPath, [script, root], { timeout: 20_000 }, (_error, stdout, stderr) => {
        done({ code: child.exitCode, stdout, stderr })
      })
    })
    expect(run.stderr).toBe('')
    expect(run.code).toBe(0)
    expect(Date.now() - started).toBeLessThan(10_000)
    expect(JSON.parse(run.stdout)).toEqual({
      errors: ['bad: domains must not be empty'],
      one: [],
      found: 'example',
      domain: true,
      result: ['ok'],
    })
  })
})
