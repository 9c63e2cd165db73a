import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { closeSiteSkills, runNodeSiteTool } from '../../src/index'
import { openSessionCount } from '../../src/nobuild/api'
import { makeTempDir, writeTree } from '../helpers/tmp'

const ROOTS = 20

/** Root `i` holds one skill, `s<i>`, whose Node tool returns i. */
const rootFiles = (i: number) => ({
  [`r${i}/s${i}/manifest.json`]: {
    id: `s${i}`,
    name: `S${i}`,
    domains: [`s${i}.example.com`],
    nodeTools: {
      n: {
        description: 'Gives its number.',
        path: 'tools/n.js',
        callable: 'n',
        args: {},
        returns: { type: 'integer' },
      },
    },
  },
  [`r${i}/s${i}/tools/n.js`]: `export const n = () => ${i}\n`,
})

let tmp: Awaited<ReturnType<typeof makeTempDir>>
beforeAll(async () => {
  tmp = await makeTempDir('nobuild-cap-')
  await writeTree(tmp.dir, Object.assign({}, ...Array.from({ length: ROOTS }, (_, i) => rootFiles(i))))
})
afterAll(async () => {
  closeSiteSkills()
  await tmp.cleanup()
})

describe('the no-build functions keep a bounded table of sessions', () => {
  it('keeps at most 16 of 20 roots open, and answers for a root whose session was closed', async () => {
    const call = (i: number) => runNodeSiteTool(`s${i}`, 'n', {}, undefined, { root: join(tmp.dir, `r${i}`) })
    for (let i = 0; i < ROOTS; i++) expect(await call(i)).toBe(i)
    expect(openSessionCount()).toBe(16)
    // r0's session was the first closed; a call of it opens one again (and closes the oldest).
    expect(await call(0)).toBe(0)
    expect(openSessionCount()).toBe(16)
    closeSiteSkills()
    expect(openSessionCount()).toBe(0)
  })
})
