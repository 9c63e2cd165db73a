import { execFileSync } from 'node:child_process'
import { readdirSync } from 'node:fs'
import { mkdir, symlink, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { RULES, describe as lines } from '../helpers/compile'
import { loadAs } from '../helpers/platform'
import { makeTempDir } from '../helpers/tmp'

type Paths = typeof import('../../src/compiler/fs/paths')
type Compile = typeof import('../helpers/compile')

// The compiler loaded twice: as on Linux (the `lstat` fast path) and as on macOS (`realpath` for
// every path), which is also what Windows runs. Both must say the same of every path.
const LINUX = 'linux'
const MAC = 'darwin'
const load = <T>(platform: NodeJS.Platform, specifier: () => Promise<T>) => loadAs(platform, specifier)
let paths: Record<string, Paths>
let compilers: Record<string, Compile>
let tmp: Awaited<ReturnType<typeof makeTempDir>>

beforeAll(async () => {
  paths = {
    [LINUX]: await load(LINUX, () => import('../../src/compiler/fs/paths')),
    [MAC]: await load(MAC, () => import('../../src/compiler/fs/paths')),
  }
  compilers = {
    [LINUX]: await load(LINUX, () => import('../helpers/compile')),
    [MAC]: await load(MAC, () => import('../helpers/compile')),
  }
  tmp = await makeTempDir('platform-paths-')
  const dir = join(tmp.dir, 'skill')
  await mkdir(join(dir, 'notes/deeper'), { recursive: true })
  await mkdir(join(tmp.dir, 'outside'))
  await writeFile(join(dir, 'notes/a.md'), 'a\n')
  await writeFile(join(dir, 'notes/deeper/b.md'), 'b\n')
  await writeFile(join(tmp.dir, 'outside/c.md'), 'c\n')
  await symlink('a.md', join(dir, 'notes/linked.md'))
  await symlink('deeper', join(dir, 'notes/folder-link'))
  await symlink('../../outside/c.md', join(dir, 'notes/escape.md'))
  await symlink('gone.md', join(dir, 'notes/dangling.md'))
  await symlink('loop.md', join(dir, 'notes/loop.md'))
  execFileSync('mkfifo', [join(dir, 'notes/pipe.md')])
})
afterAll(() => tmp.cleanup())

/** What `inspectInside` says of `rel`: its kind and real path below the skill, or the error it throws. */
async function inspect(platform: string, rel: string): Promise<string> {
  const dir = join(tmp.dir, 'skill')
  try {
    const state = await paths[platform]!.inspectInside(dir, rel)
    return state.kind === 'missing' ? 'missing' : `${state.kind} ${state.real.replace(tmp.dir, '<tmp>')}`
  } catch (error) {
    return `throws ${(error as NodeJS.ErrnoException).code}`
  }
}

describe('the Linux lstat fast path and the realpath path (macOS, Windows) agree', () => {
  it('the path is chosen by platform: as on macOS nothing goes the fast way', () => {
    const dir = join(tmp.dir, 'skill')
    expect(paths[LINUX]!.plainPathInside(dir, 'notes/a.md')).toBe(join(dir, 'notes/a.md'))
    expect(paths[LINUX]!.plainPathInside(dir, 'gone/a.md')).toBe('missing')
    expect(paths[MAC]!.plainPathInside(dir, 'notes/a.md')).toBeUndefined()
    expect(paths[MAC]!.plainPathInside(dir, 'gone/a.md')).toBeUndefined()
  })

  it('on every kind of path inside a skill', async () => {
    const cases = {
      'notes/a.md': 'file <tmp>/skill/notes/a.md',
      'notes/deeper/b.md': 'file <tmp>/skill/notes/deeper/b.md',
      notes: 'directory <tmp>/skill/notes',
      'notes/gone.md': 'missing',
      'gone/a.md': 'missing',
      'notes/a.md/below.md': 'missing',
      'notes/linked.md': 'file <tmp>/skill/notes/a.md',
      'notes/folder-link/b.md': 'file <tmp>/skill/notes/deeper/b.md',
      'notes/escape.md': 'file <tmp>/outside/c.md',
      'notes/dangling.md': 'missing',
      'notes/pipe.md': 'other <tmp>/skill/notes/pipe.md',
      'notes/loop.md': 'throws ELOOP',
      [`notes/${'x'.repeat(300)}.md`]: 'throws ENAMETOOLONG',
      [`${'x'.repeat(300)}/a.md`]: 'throws ENAMETOOLONG',
    }
    for (const platform of [LINUX, MAC]) {
      const seen: Record<string, string> = {}
      for (const rel of Object.keys(cases)) seen[rel] = await inspect(platform, rel)
      expect(seen, platform).toEqual(cases)
    }
  })

  it('on every rule fixture: the same skills and diagnostics', async () => {
    const cases = readdirSync(RULES).filter((name) => !/-(target|outside)$/.test(name))
    const results = async (platform: string) => {
      const out: Record<string, string[]> = {}
      for (const name of cases) {
        const result = await compilers[platform]!.compileRoots([join(RULES, name)])
        out[name] = [...result.skills.map((s) => `skill ${s.model.id}`), ...lines(result.diagnostics)]
      }
      return out
    }
    const linux = await results(LINUX)
    expect(Object.values(linux).flat().length).toBeGreaterThan(100)
    expect(await results(MAC)).toEqual(linux)
  })
})

describe('where the system cannot open without following a symlink (Windows)', () => {
  it('readPlainFile opens nothing and leaves the path to be inspected', async () => {
    const file = join(tmp.dir, 'skill/notes/a.md')
    vi.doMock('node:fs', async (original) => {
      const fs = await original<typeof import('node:fs')>()
      return { ...fs, constants: { ...fs.constants, O_NOFOLLOW: undefined } }
    })
    try {
      const files = await loadAs('win32', () => import('../../src/compiler/fs/files'))
      expect(files.readPlainFile(file, 1024)).toBe('other')
      expect(files.readPlainFile(join(tmp.dir, 'skill/notes/linked.md'), 1024)).toBe('other')
    } finally {
      vi.doUnmock('node:fs')
    }
    // Where the flag exists, the same file is read at once, and a symlink is not followed.
    const files = await loadAs(LINUX, () => import('../../src/compiler/fs/files'))
    expect(files.readPlainFile(file, 1024)).toEqual(Buffer.from('a\n'))
    expect(files.readPlainFile(join(tmp.dir, 'skill/notes/linked.md'), 1024)).toBe('other')
  })
})
