import { readFileSync } from 'node:fs'
import { join, posix } from 'node:path'
import { init, parse } from 'es-module-lexer'
import { beforeAll, describe, expect, it } from 'vitest'
import { SITE_TOOL_ERRORS } from '../../runtime/error-catalog'
import { runNode } from '../helpers/spawn'
import { REPO_ROOT } from '../helpers/tmp'

const DIST = join(REPO_ROOT, 'dist')

/** dist/ files loaded when `file` is imported: it and what it imports statically, transitively. */
function firstLoad(file: string, seen = new Set<string>()): Set<string> {
  if (seen.has(file)) return seen
  seen.add(file)
  const [found] = parse(readFileSync(join(DIST, file), 'utf8'), file)
  for (const { n, d } of found) {
    if (n?.startsWith('.') && d === -1) firstLoad(posix.normalize(posix.join(posix.dirname(file), n)), seen)
  }
  return seen
}

/** Runs a module script against the built runtime, as an agent would import it. */
async function runAgainstRuntime(body: string) {
  const script = `import * as rt from ${JSON.stringify(join(DIST, 'runtime.js'))}\n${body}`
  const run = await runNode(['--input-type=module', '-e', script], { cwd: REPO_ROOT })
  expect(run.stderr).toBe('')
  expect(run.code).toBe(0)
  return run.stdout.trim().split('\n')
}

beforeAll(async () => {
  await init
})

/** A registry of one skill over the public runtime: a browser tool, a slow and an echoing Node tool. */
const SKILLS = `
  const meta = { id: 'shop', name: 'Shop', domains: ['shop.example.com'], notes: [], tools: {
    read: { kind: 'browser', description: 'Reads.', args: {}, file: 'shop/browser-tools/read.js' },
    slow: { kind: 'node', description: 'Slow.', args: {}, timeoutMs: 20, file: 'shop/tools/slow.js' },
    echo: { kind: 'node', description: 'Echoes.', args: {}, file: 'shop/tools/echo.js' },
  } }
  const chunk = { notes: [], browserTools: { read: { source: 'function(){return 1}' } },
    nodeTools: { slow: async () => () => new Promise(() => {}), echo: async () => (ctx, args) => args } }
  const skills = rt.createSiteSkills({ skills: [meta], table: { exact: { 'shop.example.com': [0] }, wildcard: {} } },
    { shop: async () => chunk })`

describe('the runtime loads its error catalog on the first error', () => {
  it('ships no hint and no long message in what importing the runtime loads', () => {
    const loaded = [...firstLoad('runtime.js')].map((f) => readFileSync(join(DIST, f), 'utf8')).join('\n')
    for (const [code, entry] of Object.entries(SITE_TOOL_ERRORS)) {
      expect(loaded, code).not.toContain(entry.hint)
    }
    expect(loaded).not.toContain('args are nested deeper than')
    expect(loaded).not.toContain('no Chrome or Chromium found')
  })

  it("gives an error made before the catalog was loaded its catalog message, and the stack's first line", async () => {
    const lines = await runAgainstRuntime(`
      ${SKILLS}
      for (const args of [[1], { deep: JSON.parse('['.repeat(70) + ']'.repeat(70)) }]) {
        try { await skills.runTool('shop', 'echo', args) } catch (e) {
          console.log(e.code + ' | ' + e.message + ' | ' + e.stack.split('\\n')[0])
        }
      }`)
    expect(lines).toEqual([
      'invalid-args | shop -> echo: args must be an object (got array) | SiteToolError: shop -> echo: args must be an object (got array)',
      'invalid-args | shop -> echo: args are nested deeper than 64 levels | SiteToolError: shop -> echo: args are nested deeper than 64 levels',
    ])
  })

  it('words a registry error, a browser call without a target and a timeout as the catalog does', async () => {
    const lines = await runAgainstRuntime(`
      ${SKILLS}
      for (const call of [() => skills.runBrowserTool('shop', 'read', {}, undefined), () => skills.sites.shop.slow()]) {
        try { await call() } catch (e) { console.log(e.code + ' | ' + e.message) }
      }
      try { skills.sites.nope } catch (e) { console.log(e.code + ' | ' + e.message) }`)
    expect(lines).toEqual([
      'unavailable | shop -> read: a browser tool needs a CDP target (client, session, {host, port} or ws URL)',
      'timeout | shop -> slow: timed out after 20 ms (shop/tools/slow.js)',
      'skill-not-found | nope: no such site skill (known: shop)',
    ])
  })
})
