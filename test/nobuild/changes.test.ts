import { mkdir, rm, truncate, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { setTimeout as sleep } from 'node:timers/promises'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  closeSiteSkills,
  isSiteToolError,
  loadBrowserToolSource,
  loadLearnedContext,
  runBrowserSiteTool,
  runNodeSiteTool,
  siteSkillsForUrl,
  validateSiteSkills,
} from '../../src/index'
import { makeTempDir, writeTree } from '../helpers/tmp'

const INTEGER = { type: 'integer', description: 'A number.' }
const VALUE = { description: 'Gives a number.', path: 'tools/value.js', callable: 'value', args: {}, returns: INTEGER }
const STRING = { type: 'string', description: 'Title.' }
const TITLE = { description: 'Reads the title.', path: 'browser-tools/title.js', args: {}, returns: STRING }

const TOOLS = { nodeTools: { value: VALUE }, browserTools: { title: TITLE } }

/** A skill `id` on `<id>.example.com` whose Node tool `value` returns `n`, with a browser tool `title`. */
function skill(id: string, n: number): Record<string, unknown> {
  return {
    [`${id}/manifest.json`]: { id, name: id, domains: [`${id}.example.com`], notes: ['notes/a.md'], ...TOOLS },
    [`${id}/notes/a.md`]: `# ${id}\n`,
    [`${id}/tools/value.js`]: `export const value = () => ${n}\n`,
    [`${id}/browser-tools/title.js`]: 'async function () { return document.title }\n',
  }
}

let tmp: Awaited<ReturnType<typeof makeTempDir>>
let root: string
let roots = 0
beforeAll(async () => {
  tmp = await makeTempDir('nobuild-changes-')
  await writeFile(join(tmp.dir, 'package.json'), '{ "type": "module" }\n')
})
afterAll(async () => {
  closeSiteSkills()
  await tmp.cleanup()
})

/** Each test gets its own root (and so its own session). */
async function freshRoot(files: Record<string, unknown>): Promise<string> {
  root = join(tmp.dir, `root-${roots++}`)
  await writeTree(root, files)
  return root
}

const value = (id: string) => runNodeSiteTool(id, 'value', {}, {}, { root })
const codeOf = (p: Promise<unknown>) =>
  p.then(
    () => 'ok',
    (e: unknown) => (isSiteToolError(e) ? e.code : String(e)),
  )
const tenTimes = <T>(call: () => Promise<T>) => Promise.all(Array.from({ length: 10 }, call))

describe('every call that starts after a change gets the new state', () => {
  it('an edited tool, for all of 10 concurrent calls', async () => {
    await freshRoot(skill('a', 1))
    expect(await value('a')).toBe(1)
    await writeFile(join(root, 'a/tools/value.js'), 'export const value = () => 2\n')
    await sleep(200)
    expect(await tenTimes(() => value('a'))).toEqual(Array(10).fill(2))
  })

  it('a new skill, for all of 10 concurrent calls', async () => {
    await freshRoot(skill('a', 1))
    expect(await value('a')).toBe(1)
    await writeTree(root, skill('b', 7))
    await sleep(200)
    expect(await tenTimes(() => value('b'))).toEqual(Array(10).fill(7))
  })

  it('a deleted skill: its tools no longer load or run', async () => {
    await freshRoot({ ...skill('a', 1), ...skill('c', 3) })
    expect(await loadBrowserToolSource('c', 'title', { root })).toContain('document.title')
    await rm(join(root, 'c'), { recursive: true })
    await sleep(200)
    const target = 'ws://127.0.0.1:9/devtools/page/none'
    const calls = await tenTimes(() => codeOf(runBrowserSiteTool('c', 'title', {}, target, { root })))
    expect(calls).toEqual(Array(10).fill('skill-not-found'))
    expect(await codeOf(loadBrowserToolSource('c', 'title', { root }))).toBe('skill-not-found')
    expect(await codeOf(value('c'))).toBe('skill-not-found')
    expect(await value('a')).toBe(1)
  })
})

describe('deleted and recreated folders are watched again', () => {
  it('the root', async () => {
    await freshRoot(skill('a', 1))
    expect(await value('a')).toBe(1)
    await rm(root, { recursive: true })
    await sleep(200)
    // The root itself is gone: that is said as such, not as a missing skill.
    expect(await codeOf(value('a'))).toBe('root-missing')
    await writeTree(root, skill('a', 2))
    await sleep(200)
    expect(await value('a')).toBe(2)
    await writeFile(join(root, 'a/tools/value.js'), 'export const value = () => 3\n')
    await sleep(200)
    expect(await value('a')).toBe(3)
    await writeTree(root, skill('b', 4))
    await sleep(200)
    expect((await siteSkillsForUrl('https://b.example.com/', { root })).map((s) => s.id)).toEqual(['b'])
  })

  it('one skill folder', async () => {
    await freshRoot({ ...skill('a', 1), ...skill('b', 10) })
    expect(await value('a')).toBe(1)
    await rm(join(root, 'a'), { recursive: true })
    await sleep(200)
    expect(await codeOf(value('a'))).toBe('skill-not-found')
    await writeTree(root, skill('a', 2))
    await sleep(200)
    expect(await value('a')).toBe(2)
    await writeFile(join(root, 'a/tools/value.js'), 'export const value = () => 3\n')
    await writeFile(join(root, 'a/notes/a.md'), '# a, edited\n')
    await sleep(200)
    expect(await value('a')).toBe(3)
    expect((await loadLearnedContext('https://a.example.com/', { root })).knowledge[0]?.content).toBe('# a, edited\n')
    expect(await value('b')).toBe(10)
  })
})

describe('a skill that cannot be loaded does not break the others', () => {
  it('a 600 MB note makes its own skill unusable, and only it', async () => {
    await freshRoot({ ...skill('good', 5), ...skill('huge', 6) })
    await truncate(join(root, 'huge/notes/a.md'), 600 * 1024 * 1024)
    expect(await value('good')).toBe(5)
    expect((await siteSkillsForUrl('https://good.example.com/', { root })).map((s) => s.id)).toEqual(['good'])
    expect((await loadLearnedContext('https://good.example.com/', { root })).knowledge[0]?.content).toBe('# good\n')
    expect(await codeOf(value('huge'))).toBe('skill-not-found')
    expect((await validateSiteSkills(root)).some((m) => m.startsWith('huge: '))).toBe(true)
    // Fixed, the skill is back.
    await writeFile(join(root, 'huge/notes/a.md'), '# huge\n')
    await sleep(200)
    expect(await value('huge')).toBe(6)
  })
})

describe('an empty root', () => {
  it('that gets its first skill', async () => {
    root = join(tmp.dir, `root-${roots++}`)
    await mkdir(root)
    expect(await codeOf(value('a'))).toBe('skill-not-found')
    await writeTree(root, skill('a', 1))
    await sleep(200)
    expect(await value('a')).toBe(1)
  })
})
