import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { generateDts } from '../../src/codegen/dts'
import {
  chunkGroups,
  generateGroupChunk,
  generateGroupMember,
  generateMainModule,
  generateSkillChunk,
} from '../../src/codegen/module'
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
    expect(chunk).not.toMatch(/validators|function\(a\)/)
  })

  it('group chunk: what each skill chunk exports, built when the skill is loaded', async () => {
    const { skills } = await compileRoots([APP])
    const code = generateGroupChunk(
      skills.map((s) => generateGroupMember(s, { nodeTools: false, notes: notesOf(s.model) })),
    )
    const group = (await import(`data:text/javascript,${encodeURIComponent(code)}`)) as {
      skills: Record<string, () => Record<string, unknown>>
    }
    expect(Object.keys(group.skills)).toEqual(skills.map((s) => s.model.id))
    const ext = skills.find((s) => s.model.id === 'ext')!
    const chunk = (await import(
      `data:text/javascript,${encodeURIComponent(generateSkillChunk(ext, { nodeTools: false, notes: notesOf(ext.model) }))}`
    )) as Record<string, unknown>
    const member = group.skills.ext!()
    expect(member.notes).toEqual(chunk.notes)
    expect(member.browserTools).toEqual(chunk.browserTools)
    expect(Object.keys(member).sort()).toEqual(Object.keys(chunk).sort())
    expect(member.nodeTools).toEqual(chunk.nodeTools)
  })

  it('groups skills only above 64, each into one of 64 groups that does not move as others are added', async () => {
    const ids = (n: number) => Array.from({ length: n }, (_, i) => `site-${i}`)
    expect(chunkGroups(ids(64))).toBeUndefined()
    const some = chunkGroups(ids(65))!
    const more = chunkGroups(ids(1000))!
    expect(new Set(more.values()).size).toBe(64)
    for (const [id, group] of some) expect(more.get(id)).toBe(group)
    const { skills } = await compileRoots([APP])
    const main = generateMainModule(skills, undefined, {}, new Map([['ext', 7]]))
    expect(main).toContain('"ext": () => import("virtual:site-skills/group/7").then((m) => m.skills["ext"]()),')
    expect(main).toContain('"workspace": () => import("virtual:site-skills/skill/workspace"),')
  })

  it('d.ts', async () => {
    expect(generateDts((await compileRoots([APP])).skills)).toMatchSnapshot()
  })

  // Hostile names and literals in every generated module, run: test/codegen/names.test.ts.
})
