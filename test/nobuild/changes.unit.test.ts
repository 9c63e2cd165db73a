import { mkdirSync, rmSync, writeFileSync } from 'node:fs'
import { mkdir, truncate, writeFile } from 'node:fs/promises'
import { dirname, join } from 'node:path'
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
import { invalidSkill } from '../../src/nobuild/invalid'
import { createSession } from '../../src/session/session'
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

/**
 * Writes a tree of files synchronously: a change made this way and a call made right after it
 * (in the same tick) leave the watchers no time to hear of the change before the call starts.
 */
function writeTreeSync(root: string, files: Record<string, unknown>): void {
  for (const [rel, content] of Object.entries(files)) {
    mkdirSync(dirname(join(root, rel)), { recursive: true })
    writeFileSync(join(root, rel), typeof content === 'string' ? content : `${JSON.stringify(content, null, 2)}\n`)
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

// Every change below is made synchronously and read back in the same tick: no wait, no sleep.
describe('every call that starts after a change gets the new state', () => {
  it('an edited tool, for all of 10 concurrent calls', async () => {
    await freshRoot(skill('a', 1))
    expect(await value('a')).toBe(1)
    writeFileSync(join(root, 'a/tools/value.js'), 'export const value = () => 2\n')
    expect(await tenTimes(() => value('a'))).toEqual(Array(10).fill(2))
  })

  it('a new skill, for all of 10 concurrent calls', async () => {
    await freshRoot(skill('a', 1))
    expect(await value('a')).toBe(1)
    writeTreeSync(root, skill('b', 7))
    expect(await tenTimes(() => value('b'))).toEqual(Array(10).fill(7))
  })

  it('a deleted skill: its tools no longer load or run', async () => {
    await freshRoot({ ...skill('a', 1), ...skill('c', 3) })
    expect(await loadBrowserToolSource('c', 'title', { root })).toContain('document.title')
    rmSync(join(root, 'c'), { recursive: true })
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
    rmSync(root, { recursive: true })
    // The root itself is gone: that is said as such, not as a missing skill.
    expect(await codeOf(value('a'))).toBe('root-missing')
    writeTreeSync(root, skill('a', 2))
    expect(await value('a')).toBe(2)
    writeFileSync(join(root, 'a/tools/value.js'), 'export const value = () => 3\n')
    expect(await value('a')).toBe(3)
    writeTreeSync(root, skill('b', 4))
    expect((await siteSkillsForUrl('https://b.example.com/', { root })).map((s) => s.id)).toEqual(['b'])
  })

  it('one skill folder', async () => {
    await freshRoot({ ...skill('a', 1), ...skill('b', 10) })
    expect(await value('a')).toBe(1)
    rmSync(join(root, 'a'), { recursive: true })
    expect(await codeOf(value('a'))).toBe('skill-not-found')
    writeTreeSync(root, skill('a', 2))
    expect(await value('a')).toBe(2)
    writeFileSync(join(root, 'a/tools/value.js'), 'export const value = () => 3\n')
    writeFileSync(join(root, 'a/notes/a.md'), '# a, edited\n')
    expect(await value('a')).toBe(3)
    expect((await loadLearnedContext('https://a.example.com/', { root })).knowledge[0]?.content).toBe('# a, edited\n')
    expect(await value('b')).toBe(10)
  })

  // A deleted folder's inode is reused by the next one made: the same path and inode, but the
  // watcher of the old folder hears nothing of the new one.
  it('a skill folder deleted and made again in the same tick, each time', async () => {
    await freshRoot(skill('a', 0))
    expect(await value('a')).toBe(0)
    for (let round = 1; round <= 5; round++) {
      rmSync(join(root, 'a'), { recursive: true })
      writeTreeSync(root, skill('a', round))
      expect(await value('a')).toBe(round)
      writeFileSync(join(root, 'a/tools/value.js'), `export const value = () => ${round * 100}\n`)
      expect(await value('a')).toBe(round * 100)
    }
  })

  it('the root deleted and made again in the same tick, each time', async () => {
    await freshRoot(skill('a', 0))
    expect(await value('a')).toBe(0)
    for (let round = 1; round <= 5; round++) {
      rmSync(root, { recursive: true })
      writeTreeSync(root, skill('a', round))
      expect(await value('a')).toBe(round)
      writeTreeSync(root, skill(`new-${round}`, round))
      expect(await value(`new-${round}`)).toBe(round)
    }
  })
})

describe('every root', () => {
  it('a change under the second root, seen at once', async () => {
    const first = await freshRoot(skill('a', 1))
    const second = await freshRoot(skill('b', 2))
    const roots = [first, second]
    const valueIn = (id: string) => runNodeSiteTool(id, 'value', {}, {}, { roots })
    expect(await valueIn('b')).toBe(2)
    writeFileSync(join(second, 'b/tools/value.js'), 'export const value = () => 20\n')
    writeTreeSync(second, skill('c', 3))
    expect(await tenTimes(() => valueIn('b'))).toEqual(Array(10).fill(20))
    expect(await valueIn('c')).toBe(3)
    rmSync(join(second, 'c'), { recursive: true })
    expect(await codeOf(valueIn('c'))).toBe('skill-not-found')
  })
})

describe('where file events come in no order (macOS, Windows): every call compiles', () => {
  it('sees a change made in the same tick, and the watchers still report changes', async () => {
    await freshRoot(skill('a', 1))
    let changes = 0
    const session = createSession([root], { invalidSkill, platform: 'darwin', onChange: () => changes++ })
    try {
      const ids = async () => (await session.current()).result.skills.map((s) => s.model.id)
      expect(await ids()).toEqual(['a'])
      writeTreeSync(root, skill('b', 2))
      expect(await ids()).toEqual(['a', 'b'])
      rmSync(join(root, 'a'), { recursive: true })
      expect(await ids()).toEqual(['b'])
      await expect.poll(() => changes).toBeGreaterThan(0)
    } finally {
      session.close()
    }
  })
})

describe('a skill that cannot be loaded does not break the others', () => {
  it('a 600 MB note makes its own skill unusable, and only it', async () => {
    await freshRoot({ ...skill('good', 5), ...skill('huge', 6) })
    await truncate(join(root, 'huge/notes/a.md'), 600 * 1024 * 1024)
    expect(await value('good')).toBe(5)
    expect((await siteSkillsForUrl('https://good.example.com/', { root })).map((s) => s.id)).toEqual(['good'])
    expect((await loadLearnedContext('https://good.example.com/', { root })).knowledge[0]?.content).toBe('# good\n')
    expect(await codeOf(value('huge'))).toBe('skill-invalid')
    expect((await validateSiteSkills(root)).some((m) => m.startsWith('huge: '))).toBe(true)
    // Fixed, the skill is back.
    writeFileSync(join(root, 'huge/notes/a.md'), '# huge\n')
    expect(await value('huge')).toBe(6)
  })
})

describe('an empty root', () => {
  it('that gets its first skill', async () => {
    root = join(tmp.dir, `root-${roots++}`)
    await mkdir(root)
    expect(await codeOf(value('a'))).toBe('skill-not-found')
    writeTreeSync(root, skill('a', 1))
    expect(await value('a')).toBe(1)
  })
})
