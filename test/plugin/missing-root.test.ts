import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { REPO_ROOT, makeTempDir, writeTree } from '../helpers/tmp'
import { SHOP_MANIFEST } from '../helpers/shop-skill'
import { runNode } from '../helpers/spawn'

const VITE = join(REPO_ROOT, 'node_modules/vite/bin/vite.js')

const SHOP = SHOP_MANIFEST

/** An agent that reads a site id and a tool name the build does not have, as a typo in JavaScript would. */
const AGENT = `import { sites } from 'virtual:site-skills'
const codeOf = async (call) => {
  try {
    await call()
    return 'no error'
  } catch (error) {
    return \`\${error.name} \${error.code}: \${error.message}\`
  }
}
console.log(await sites.shop.double({ n: 2 }))
console.log(await codeOf(() => sites['shpo'].double({ n: 2 })))
console.log(await codeOf(() => sites.shop.tripple({ n: 2 })))
console.log('in', 'shpo' in sites, Object.keys(sites).join(','))
`

let tmp: Awaited<ReturnType<typeof makeTempDir>>
beforeAll(async () => {
  tmp = await makeTempDir('roots-')
  await writeTree(tmp.dir, {
    'package.json': '{ "type": "module" }\n',
    'agent.js': AGENT,
    'learnings/shop/manifest.json': SHOP,
    'learnings/shop/tools/double.js': 'export const double = (ctx, args) => args.n * 2\n',
  })
})
afterAll(() => tmp.cleanup())

describe('vite build --ssr with a roots option', () => {
  it('fails when a root does not exist, naming it, instead of building an empty agent', async () => {
    await writeTree(tmp.dir, {
      'vite.config.js':
        "import siteSkills from 'unplugin-site-skills/vite'\nexport default { plugins: [siteSkills({ roots: 'nope' })] }\n",
    })
    const build = await runNode([VITE, 'build', '--ssr', 'agent.js', '--outDir', 'out-nope'], {
      cwd: tmp.dir,
      limitMs: 60_000,
    })
    const output = build.stdout + build.stderr
    expect(build.timedOut).toBe(false)
    expect(build.code, output).toBe(1)
    expect(output).toContain(`root "${join(tmp.dir, 'nope')}" does not exist`)
    expect(output).toContain('root-missing')
    expect(output).toContain('Create the folder or pass another --root.')
    expect(output).not.toContain('[site-skills] warning')
  })

  it("builds an agent whose sites['typo'] is a skill-not-found error and an unknown tool a tool-not-found", async () => {
    await writeTree(tmp.dir, {
      'vite.config.js':
        "import siteSkills from 'unplugin-site-skills/vite'\nexport default { plugins: [siteSkills()] }\n",
    })
    const build = await runNode([VITE, 'build', '--ssr', 'agent.js', '--outDir', 'out-ok'], {
      cwd: tmp.dir,
      limitMs: 60_000,
    })
    expect(build.code, build.stdout + build.stderr).toBe(0)
    const agent = await runNode([join(tmp.dir, 'out-ok/agent.js')], { cwd: tmp.dir })
    expect(agent.code, agent.stderr).toBe(0)
    expect(agent.stdout.split('\n')).toEqual([
      '4',
      'SiteToolError skill-not-found: shpo: no such site skill (known: shop)',
      'SiteToolError tool-not-found: shop -> tripple: no such tool (known: double)',
      'in false shop',
      '',
    ])
  })
})
