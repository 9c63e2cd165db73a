import { mkdir, symlink } from 'node:fs/promises'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { loadAs } from '../helpers/platform'
import { makeTempDir, writeTree } from '../helpers/tmp'

/*
 * skill-unreadable: the system cannot resolve a path the skill names. These tests may run as
 * root, for whom a chmod 000 file or folder still reads, so the paths here are ones no user can
 * read: a name longer than the file system allows (ENAMETOOLONG) and a symlink to itself (ELOOP).
 * Both the Linux lstat fast path and the realpath path of macOS and Windows are run.
 */

const LONG = 'x'.repeat(300)
const manifest = (id: string, notes: string[]) => ({ id, name: id, domains: [`${id}.example`], notes })

let tmp: Awaited<ReturnType<typeof makeTempDir>>
beforeAll(async () => {
  tmp = await makeTempDir('unreadable-')
  await writeTree(tmp.dir, {
    'fine/manifest.json': manifest('fine', ['notes/a.md']),
    'fine/notes/a.md': '# fine\n',
    'long/manifest.json': manifest('long', [`notes/${LONG}.md`]),
    'looped/manifest.json': manifest('looped', ['notes/loop.md']),
  })
  await mkdir(join(tmp.dir, 'long/notes'), { recursive: true })
  await mkdir(join(tmp.dir, 'looped/notes'), { recursive: true })
  await symlink('loop.md', join(tmp.dir, 'looped/notes/loop.md'))
})
afterAll(() => tmp.cleanup())

describe.each(['linux', 'darwin'] as const)('a skill whose files cannot be read (paths as on %s)', (platform) => {
  it('is skill-unreadable with the reason the system gives; the other skills still compile', async () => {
    const { compileRoots } = await loadAs(platform, () => import('../helpers/compile'))
    const result = await compileRoots([tmp.dir])
    expect(result.skills.map((s) => s.model.id)).toEqual(['fine'])
    const found = result.diagnostics.map((d) => ({
      siteId: d.siteId,
      code: d.code,
      file: d.file,
      severity: d.severity,
    }))
    expect(found).toEqual([
      { siteId: 'long', code: 'skill-unreadable', file: 'long/manifest.json', severity: 'error' },
      { siteId: 'looped', code: 'skill-unreadable', file: 'looped/manifest.json', severity: 'error' },
    ])
    const [long, looped] = result.diagnostics
    expect(long!.message).toMatch(/^cannot read the skill: ENAMETOOLONG: name too long/)
    expect(looped!.message).toMatch(/^cannot read the skill: ELOOP: too many symbolic links/)
    expect(looped!.hint).toContain('the other skills are not affected')
  })
})
