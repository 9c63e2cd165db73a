import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { closeSiteSkills, runNodeSiteTool, validateSiteSkills } from '../../src/index'
import { makeTempDir, writeTree } from '../helpers/tmp'

const VALUE = {
  description: 'Gives a number, with a description long enough to go over a budget of a few tokens.',
  path: 'tools/value.js',
  callable: 'value',
  args: {},
  returns: { type: 'integer', description: 'A number.' },
}

/** A skill whose one Node tool has the token budget `budget`. */
const skill = (id: string, budget: unknown) => ({
  [`${id}/manifest.json`]: {
    id,
    name: id,
    domains: [`${id}.example.com`],
    nodeTools: { value: { ...VALUE, tokenBudget: budget } },
  },
  [`${id}/tools/value.js`]: 'export const value = () => 7\n',
})

let tmp: Awaited<ReturnType<typeof makeTempDir>>
beforeAll(async () => {
  tmp = await makeTempDir('nobuild-budgets-')
  await writeTree(tmp.dir, {
    ...skill('over', { max: 10, fail: true }),
    ...skill('warned', 10),
    ...skill('within', 4000),
  })
})
afterAll(async () => {
  closeSiteSkills()
  await tmp.cleanup()
})

describe('the no-build API counts token budgets as builds, commands and the MCP server do', () => {
  it('reports a tool over a failing budget as an error of its skill, and does not run it', async () => {
    const errors = await validateSiteSkills(tmp.dir)
    expect(errors).toHaveLength(1)
    expect(errors[0]).toMatch(/^over: .*token/)
    await expect(runNodeSiteTool('over', 'value', {}, undefined, { root: tmp.dir })).rejects.toMatchObject({
      code: 'skill-invalid',
    })
  })

  it('runs a tool over a budget that only warns, and one within its budget', async () => {
    expect(await runNodeSiteTool('warned', 'value', {}, undefined, { root: tmp.dir })).toBe(7)
    expect(await runNodeSiteTool('within', 'value', {}, undefined, { root: tmp.dir })).toBe(7)
  })
})
