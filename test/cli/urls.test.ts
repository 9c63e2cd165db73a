import { mkdir, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type LaunchedBrowser, launchBrowser } from '../../runtime/launch'
import { type StaticServer, serveFolder } from '../../playground/serve'
import { makeTempDir, writeTree } from '../helpers/tmp'
import { runBin } from '../helpers/spawn'

// `urls` through the real binary: a scoped and an unscoped skill on one host (127.0.0.1), and the
// pages of a local server in headless Chromium.
const PATH_TOOL = 'async function () { return location.pathname }'
const browserTool = (description: string, urls?: string[]) => ({
  description,
  path: 'browser-tools/path.js',
  args: {},
  returns: { type: 'string', description: 'The page path.' },
  ...(urls ? { urls } : {}),
})

let tmp: Awaited<ReturnType<typeof makeTempDir>>
let site: StaticServer
let browser: LaunchedBrowser
let root: string
let cdp: string

beforeAll(async () => {
  tmp = await makeTempDir('urls-')
  root = join(tmp.dir, 'learnings')
  await writeTree(root, {
    'repo/manifest.json': {
      id: 'repo',
      name: 'Repository pages',
      domains: ['127.0.0.1'],
      urls: ['/:owner/:repo/*'],
      browserTools: {
        repo_path: browserTool('Path of a repository page.'),
        issue_path: browserTool('Path of an issue page.', ['/:owner/:repo/issues/:n']),
      },
    },
    'repo/browser-tools/path.js': PATH_TOOL,
    'site/manifest.json': {
      id: 'site',
      name: 'Whole site',
      domains: ['127.0.0.1'],
      browserTools: { any_path: browserTool('Path of any page.') },
    },
    'site/browser-tools/path.js': PATH_TOOL,
  })
  const pages = join(tmp.dir, 'pages')
  for (const page of ['about.html', 'acme/lib/readme.html', 'acme/lib/issues/7.html']) {
    await mkdir(join(pages, page, '..'), { recursive: true })
    await writeFile(join(pages, page), `<!doctype html><title>${page}</title>`)
  }
  site = await serveFolder(pages)
  browser = await launchBrowser()
  for (const page of ['about.html', 'acme/lib/readme.html', 'acme/lib/issues/7.html'])
    await browser.newPage(site.url + page)
  cdp = `127.0.0.1:${browser.port}`
})

afterAll(async () => {
  await browser?.close()
  await site?.close()
  await tmp?.cleanup()
})

const bin = (argv: string[]) => runBin([...argv, '--root', root], { cwd: tmp.dir, limitMs: 30_000 })
const run = (siteId: string, tool: string, target: string) =>
  bin(['run', siteId, tool, '--json', '--cdp', cdp, '--target', target])

describe('urls: skills and tools scoped to paths', () => {
  it('match and context apply a scoped skill and its scoped tool only on their paths', async () => {
    const [about, readme, issue] = ['about.html', 'acme/lib/readme.html', 'acme/lib/issues/7.html'].map(
      (p) => site.url + p,
    )
    const match = await bin(['match', '--json', about!, readme!, issue!])
    expect(match.code, match.stderr).toBe(0)
    expect(JSON.parse(match.stdout)).toEqual({
      [about!]: ['site'],
      [readme!]: ['repo', 'site'],
      [issue!]: ['repo', 'site'],
    })
    const tools = async (url: string) => {
      const context = await bin(['context', '--json', url])
      expect(context.code, context.stderr).toBe(0)
      const parsed = JSON.parse(context.stdout)
      expect(Object.values(parsed.toolDefinitions.names).map((r) => (r as { tool: string }).tool)).toEqual(
        parsed.tools.map((t: { toolName: string }) => t.toolName),
      )
      return parsed.tools.map((t: { siteId: string; toolName: string }) => `${t.siteId}.${t.toolName}`)
    }
    expect(await tools(about!)).toEqual(['site.any_path'])
    expect(await tools(readme!)).toEqual(['repo.repo_path', 'site.any_path'])
    expect(await tools(issue!)).toEqual(['repo.repo_path', 'repo.issue_path', 'site.any_path'])
    const human = await bin(['context', readme!])
    expect(human.stdout).toContain('repo applies on paths /:owner/:repo/*')
  })

  it('the call-time guard refuses a tool on the wrong path with url-mismatch, and runs it on its own', async () => {
    const onIssue = await run('repo', 'issue_path', 'issues/7.html')
    expect(onIssue.stderr).toBe('')
    expect(JSON.parse(onIssue.stdout)).toBe('/acme/lib/issues/7.html')
    const toolScope = await run('repo', 'issue_path', 'readme.html')
    expect(toolScope.timedOut).toBe(false)
    expect(toolScope.code).toBe(1)
    expect(toolScope.stderr).toContain('url-mismatch: repo -> issue_path: refused to run on')
    expect(toolScope.stderr).toContain(
      '/acme/lib/readme.html: its path does not match /:owner/:repo/* and /:owner/:repo/issues/:n',
    )
    const skillScope = await run('repo', 'repo_path', 'about.html')
    expect(skillScope.code).toBe(1)
    expect(skillScope.stderr).toContain('url-mismatch: repo -> repo_path')
    const unscoped = await run('site', 'any_path', 'about.html')
    expect(unscoped.stderr).toBe('')
    expect(JSON.parse(unscoped.stdout)).toBe('/about.html')
  })

  it('an invalid pattern is url-pattern at its file:line:col, exit 1', async () => {
    const bad = join(tmp.dir, 'bad')
    await writeTree(bad, {
      'scoped/manifest.json': [
        '{',
        '  "id": "scoped",',
        '  "name": "Scoped",',
        '  "domains": ["example.com"],',
        '  "urls": ["/:owner/:repo", "/(oops"],',
        '  "browserTools": {',
        '    "t": { "description": "d", "path": "browser-tools/t.js", "args": {},',
        '      "returns": { "type": "string", "description": "r" }, "urls": ["issues/*"] }',
        '  }',
        '}',
        '',
      ].join('\n'),
      'scoped/browser-tools/t.js': PATH_TOOL,
    })
    const human = await runBin(['validate', '--root', bad], { cwd: tmp.dir })
    expect(human.code).toBe(1)
    expect(human.stderr + human.stdout).toContain('scoped/manifest.json:5:29')
    const json = await runBin(['validate', '--json', '--root', bad], { cwd: tmp.dir })
    expect(json.code).toBe(1)
    const found = JSON.parse(json.stdout).diagnostics.map((d: Record<string, unknown>) => [
      d.code,
      d.file,
      d.line,
      d.column,
      d.message,
    ])
    expect(found).toEqual([
      ['url-pattern', 'scoped/manifest.json', 5, 29, expect.stringContaining('urls: invalid URL pattern "/(oops"')],
      [
        'url-pattern',
        'scoped/manifest.json',
        8,
        69,
        'browserTools.t.urls: URL pattern "issues/*" must start with "/" (it matches the pathname)',
      ],
    ])
    expect(JSON.parse(json.stdout).diagnostics[0].hint).toContain('URLPattern pathname patterns')
  })
})
