import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { runAsUser } from '../helpers/spawn'
import { REPO_ROOT } from '../helpers/tmp'

/*
 * Are the Types Wrong? on the packed tarball (issue 40.15): every entry point has types, the editor
 * plugin too, so no entry point needs leaving out of the check.
 */
const ATTW = join(REPO_ROOT, 'node_modules/.bin/attw')
let dir = ''
let tarball = ''

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'site-skills-attw-'))
  const packed = await runAsUser(
    'npm',
    ['pack', '--ignore-scripts', '--json', '--pack-destination', dir],
    REPO_ROOT,
    60_000,
  )
  expect(packed.code, packed.stderr).toBe(0)
  tarball = join(dir, (JSON.parse(packed.stdout) as [{ filename: string }])[0].filename)
}, 90_000)

afterAll(() => rm(dir, { recursive: true, force: true }))

describe('the types of the packed package (attw)', () => {
  it('./ts-plugin has types in every resolution mode, with the default profile', async () => {
    const checked = await runAsUser(
      ATTW,
      [tarball, '--entrypoints', './ts-plugin', '--format', 'table-flipped'],
      dir,
      60_000,
    )
    expect(checked.code, checked.stdout + checked.stderr).toBe(0)
    expect(checked.stdout).not.toContain('No types')
  })

  it('passes the esm-only profile on every entry point, none left out (npm run lint:pkg)', async () => {
    const checked = await runAsUser(ATTW, [tarball, '--profile', 'esm-only'], dir, 60_000)
    expect(checked.code, checked.stdout + checked.stderr).toBe(0)
  })
})
