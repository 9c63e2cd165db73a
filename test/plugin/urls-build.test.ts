import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type BundlerName, buildApp, readOutput, runMain } from '../helpers/bundlers'
import { makeTempDir, writeTree } from '../helpers/tmp'

// Real builds of an app whose skill and tool have `urls`: the built module waits for URLPattern
// (the polyfill on Node < 23.8) and then scopes the lookup, the tool definitions and the d.ts docs.
let tmp: Awaited<ReturnType<typeof makeTempDir>>

const ENTRY = `import { loadLearnedContext, siteSkillsForUrl, toolDefinitions } from 'virtual:site-skills'

const ids = (url) => siteSkillsForUrl(url).map((s) => s.id)
const tools = (url) => Object.values(toolDefinitions(url).names).map((r) => r.siteId + '.' + r.tool)

export async function main() {
  return {
    home: ids('https://git.example.com/'),
    repo: ids('https://git.example.com/acme/lib'),
    repoTools: tools('https://git.example.com/acme/lib'),
    issueTools: tools('https://git.example.com/acme/lib/issues/7?x=1'),
    context: (await loadLearnedContext('https://git.example.com/acme/lib/issues/7')).tools.map((t) => t.toolName),
  }
}
`
const nodeTool = (description: string, urls?: string[]) => ({
  description,
  path: 'tools/t.js',
  callable: 't',
  args: {},
  returns: { type: 'string', description: 'Text.' },
  ...(urls ? { urls } : {}),
})

beforeAll(async () => {
  tmp = await makeTempDir('urls-build-')
  await writeTree(tmp.dir, {
    'entry.js': ENTRY,
    'learnings/repo/manifest.json': {
      id: 'repo',
      name: 'Repositories',
      domains: ['git.example.com'],
      urls: ['/:owner/:repo', '/:owner/:repo/*'],
      nodeTools: {
        about: nodeTool('About the repository.'),
        issue: nodeTool('The open issue.', ['/:owner/:repo/issues/:n']),
      },
    },
    'learnings/repo/tools/t.js': 'export function t() {\n  return "t"\n}\n',
    'learnings/site/manifest.json': { id: 'site', name: 'Site', domains: ['git.example.com'] },
  })
})
afterAll(() => tmp?.cleanup())

describe.each(['vite', 'esbuild', 'webpack'] satisfies BundlerName[])('urls in a %s build', (bundler) => {
  it('scopes skills and tools to their paths in the built module', async () => {
    const outDir = join(tmp.dir, `dist-${bundler}`)
    const dts = join(tmp.dir, `${bundler}.d.ts`)
    const roots = join(tmp.dir, 'learnings')
    const file = await buildApp(bundler, {
      outDir,
      app: tmp.dir,
      entry: join(tmp.dir, 'entry.js'),
      options: { roots, dts },
    })
    expect(await runMain(file)).toEqual({
      home: ['site'],
      repo: ['repo', 'site'],
      repoTools: ['repo.about'],
      issueTools: ['repo.about', 'repo.issue'],
      context: ['about', 'issue'],
    })
    const code = Object.values(await readOutput(outDir)).join('\n')
    expect(code).toContain('loadUrlPattern')
    const types = await readFile(dts, 'utf8')
    expect(types).toContain('Pages: `/:owner/:repo`, `/:owner/:repo/*`')
    expect(types).toContain('Pages: `/:owner/:repo/issues/:n`')
  }, 120_000)
})
