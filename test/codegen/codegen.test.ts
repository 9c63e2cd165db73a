import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { generateDts } from '../../src/codegen/dts'
import { generateMainModule, generateSkillChunk } from '../../src/codegen/module'
import { generateArgsValidator } from '../../src/codegen/validator'
import { notesOf } from '../../src/compiler/notes'
import { compileRoots } from '../helpers/compile'
import { REPO_ROOT } from '../helpers/tmp'

const APP = join(REPO_ROOT, 'test/fixtures/app/learnings')
const hidePaths = (code: string) => code.replaceAll(REPO_ROOT, '<repo>')

describe('generated code', () => {
  it('main module: data and lazy loaders only, deterministic', async () => {
    const first = generateMainModule((await compileRoots([APP])).skills)
    const second = generateMainModule((await compileRoots([APP])).skills)
    expect(second).toBe(first)
    expect(first).not.toContain(REPO_ROOT)
    expect(first).not.toContain('The search box is')
    expect(first).toMatchSnapshot()
  })

  it('skill chunk: notes, Node tool loaders, compiled browser tools, validators', async () => {
    const { skills } = await compileRoots([APP])
    const ext = skills.find((s) => s.model.id === 'ext')!
    const chunk = generateSkillChunk(ext, { nodeTools: true, notes: notesOf(ext.model) })
    expect(hidePaths(chunk)).toMatchSnapshot()
    const browserOnly = generateSkillChunk(ext, { nodeTools: false, notes: [] })
    expect(browserOnly).not.toContain('tools/search.js')
    expect(browserOnly).toContain('export const nodeTools = {\n};')
  })

  it('d.ts', async () => {
    expect(generateDts((await compileRoots([APP])).skills)).toMatchSnapshot()
  })

  it('interpolates every name and literal safely', () => {
    const hostile = '"]);globalThis.pwned=1;//\u2028</script>'
    const source = generateArgsValidator({ [hostile]: { type: 'string', required: true, enum: [hostile, 'b'] } })
    const check = new Function(`return ${source}`)() as (args: Record<string, unknown>) => unknown
    expect(check({ [hostile]: hostile })).toBeUndefined()
    expect(check({ [hostile]: 'c' })).toEqual([hostile, `one of ${JSON.stringify(hostile)}, "b"`, 'c'])
    expect((globalThis as { pwned?: number }).pwned).toBeUndefined()
  })
})
