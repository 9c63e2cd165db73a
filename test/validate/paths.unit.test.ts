import { execFileSync } from 'node:child_process'
import { mkdir, mkdtemp, realpath, rm, symlink, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { isAbsolute, join, relative } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { readPlainFile, readRegularFile } from '../../src/compiler/fs/files'
import { inspectInside, inspectPath, isInside, pathBelow, plainPathInside } from '../../src/compiler/fs/paths'

let base: string
let skill: string

beforeAll(async () => {
  base = await realpath(await mkdtemp(join(tmpdir(), 'site-skills-paths-')))
  skill = join(base, 'skill')
  await mkdir(join(skill, 'browser-tools/lib'), { recursive: true })
  await mkdir(join(base, 'outside'), { recursive: true })
  await writeFile(join(skill, 'manifest.json'), '{}')
  await writeFile(join(skill, 'browser-tools/a.js'), '() => 1')
  await writeFile(join(skill, 'browser-tools/lib/b.js'), 'export {}')
  await writeFile(join(base, 'outside/secret.js'), '() => 2')
  await symlink(join(base, 'outside'), join(skill, 'linked-dir'))
  await symlink(join(skill, 'browser-tools/a.js'), join(skill, 'browser-tools/alias.js'))
  await symlink(join(base, 'outside/secret.js'), join(skill, 'browser-tools/escape.js'))
  await symlink(join(skill, 'nowhere.js'), join(skill, 'dangling.js'))
  execFileSync('mkfifo', [join(skill, 'pipe.js')])
})

afterAll(() => rm(base, { recursive: true, force: true }))

describe('inspectInside', () => {
  it.each([
    'manifest.json',
    'browser-tools/a.js',
    'browser-tools/lib/b.js',
    'browser-tools',
    'missing.js',
    'browser-tools/missing/x.js',
    'manifest.json/x.js',
    'linked-dir/secret.js',
    'browser-tools/alias.js',
    'browser-tools/escape.js',
    'dangling.js',
    'pipe.js',
    '../outside/secret.js',
    './manifest.json',
    'browser-tools//a.js',
    'browser-tools/lib/../a.js',
  ])('says of %s what resolving the whole path says', async (rel) => {
    expect(await inspectInside(skill, rel)).toEqual(await inspectPath(join(skill, rel)))
  })

  it('says the same with a set of plain folders shared across calls, which holds folders only', async () => {
    const rels = [
      'browser-tools/lib/b.js',
      'browser-tools/a.js',
      'browser-tools/lib/missing.js',
      'linked-dir/secret.js',
      'browser-tools/escape.js',
      'manifest.json/x.js',
      'browser-tools/lib/b.js',
    ]
    const plainDirs = new Set<string>()
    for (const rel of rels)
      expect(await inspectInside(skill, rel, plainDirs)).toEqual(await inspectPath(join(skill, rel)))
    expect([...plainDirs].sort()).toEqual([join(skill, 'browser-tools'), join(skill, 'browser-tools/lib')])
  })

  it('gives the real path of a file reached through a symlinked folder', async () => {
    expect(await inspectInside(skill, 'linked-dir/secret.js')).toMatchObject({
      kind: 'file',
      real: join(base, 'outside/secret.js'),
    })
  })
})

describe('reading a file below plain folders without inspecting it first', () => {
  /** What the fast path does with a path: `inspect` means it leaves the path to inspectInside. */
  const fastPath = (rel: string) => {
    const plain = plainPathInside(skill, rel)
    if (plain === undefined || plain === 'missing') return plain ?? 'inspect'
    const read = readPlainFile(plain, 1024)
    return Buffer.isBuffer(read) ? read.toString() : typeof read === 'string' ? read : read.problem
  }

  it.each([
    ['manifest.json', '{}'],
    ['browser-tools/a.js', '() => 1'],
    ['browser-tools/lib/b.js', 'export {}'],
    ['missing.js', 'missing'],
    ['browser-tools/missing/x.js', 'missing'],
    ['manifest.json/x.js', 'missing'],
    // Anything but a regular file that opened goes back to inspecting the path.
    ['browser-tools', 'other'],
    ['browser-tools/alias.js', 'other'],
    ['browser-tools/escape.js', 'other'],
    ['dangling.js', 'other'],
    ['pipe.js', 'other'],
    ['linked-dir/secret.js', 'inspect'],
    ['../outside/secret.js', 'inspect'],
    ['./manifest.json', 'inspect'],
    ['browser-tools//a.js', 'inspect'],
  ])('%s: %s', (rel, expected) => {
    expect(fastPath(rel)).toBe(expected)
  })

  it('answers as readRegularFile does for a plain file, over the limit too', () => {
    const file = join(skill, 'browser-tools/a.js')
    expect(readPlainFile(file, 1024)).toEqual(readRegularFile(file, 1024))
    expect(readPlainFile(file, 3)).toEqual(readRegularFile(file, 3))
    expect(readPlainFile(file, 3)).toMatchObject({ problem: 'too-large', size: 7 })
    const stamps = new Map<string, string>()
    readPlainFile(file, 1024, stamps)
    expect(stamps.get(file)).toMatch(/^7:\d+:\d+:\d+$/)
  })
})

describe('isInside and pathBelow', () => {
  // The definition the prefix test must agree with.
  const byRelative = (parent: string, child: string) => {
    const rel = relative(parent, child)
    return rel === '' || (!rel.startsWith('..') && !isAbsolute(rel))
  }
  it.each([
    ['/a/b', '/a/b', true],
    ['/a/b', '/a/b/c.js', true],
    ['/a/b', '/a/b/c/d.js', true],
    ['/a/b/', '/a/b/c.js', true],
    ['/', '/a', true],
    ['/a/b', '/a/bc/d.js', false],
    ['/a/b', '/a/b.js', false],
    ['/a/b', '/a', false],
    ['/a/b', '/a/b/../c.js', false],
    ['/a/b', '/a/b/c/../../d.js', false],
    ['/a/b', '/a/b/c/../e.js', true],
    ['/a/b', '/a/b/x..y.js', true],
    ['/a/b', '/other/a/b', false],
  ])('%s holds %s: %s', (parent, child, inside) => {
    expect(isInside(parent, child)).toBe(inside)
    expect(byRelative(parent, child)).toBe(inside)
    expect(pathBelow(parent, child)).toBe(inside ? relative(parent, child) : undefined)
  })
})
