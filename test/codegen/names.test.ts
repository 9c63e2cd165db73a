import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import ts from 'typescript'
import { describe, expect, it } from 'vitest'
import { createHarness, statementAt, toolTargets } from '../../src/typecheck/harness'
import { generateDts } from '../../src/codegen/dts'
import { jsValue } from '../../src/codegen/literal'
import {
  generateGroupChunk,
  generateGroupMember,
  generateMainModule,
  generateSkillChunk,
} from '../../src/codegen/module'
import type { CompiledSkill } from '../../src/compiler/compile'
import type { ToolModel } from '../../src/compiler/model'
import { REPO_ROOT } from '../helpers/tmp'

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')

/*
 * Names that validation refuses, or that it accepts but that mean something to a parser: generated
 * code must carry each of them as data, whatever reaches codegen (the no-build API, a caller of
 * the codegen functions, a future rule that lets more through).
 */
const HOSTILE = [
  'a\u2028,(globalThis.__pwned=1),window',
  'b\u2029;globalThis.__pwned=2;//',
  '*/ globalThis.__pwned=3 /*',
  '"]);globalThis.__pwned=4;//',
  '`${globalThis.__pwned=5}`\\',
  '</script><script>globalThis.__pwned=6</script>',
  '__proto__',
  'constructor',
  'lone \ud800 surrogate',
]

const RETURNS = { type: 'object' as const, description: 'The result.' }

function tool(name: string, kind: 'node' | 'browser', dir: string): ToolModel {
  return {
    name,
    kind,
    description: `Does ${name}.\u2028Second line */ ends.`,
    path: `${kind === 'node' ? 'tools' : 'browser-tools'}/${name}.js`,
    absPath: join(dir, kind === 'node' ? 'tools' : 'browser-tools', `${name}.js`),
    callable: kind === 'node' ? name : undefined,
    args: { [name]: { type: 'string', required: true, description: name, enum: [name] } },
    returns: RETURNS,
  }
}

/** A compiled skill for each hostile id, with a Node and a browser tool per hostile name (no validation ran). */
function hostileSkills(): CompiledSkill[] {
  return HOSTILE.map((id) => {
    const dir = join('/learnings', id)
    const tools = HOSTILE.flatMap((name) => [tool(name, 'node', dir), tool(`${name} (page)`, 'browser', dir)])
    const browser = Object.fromEntries(
      tools.filter((t) => t.kind === 'browser').map((t) => [t.name, { source: 'async function(){return 1}' }]),
    )
    return {
      model: { id, name: id, domains: ['example.com'], root: '/learnings', dir, realDir: dir, notes: [], tools },
      browser,
    }
  })
}

const pwned = () => (globalThis as { __pwned?: unknown }).__pwned

const importCode = (code: string) => import(`data:text/javascript,${encodeURIComponent(code)}`)

/** Line starts as TypeScript counts them (U+2028 and U+2029 start a line) against `\n` alone. */
function lineCounts(text: string): [number, number] {
  const file = ts.createSourceFile('x.ts', text, ts.ScriptTarget.Latest)
  return [file.getLineStarts().length, text.split('\n').length]
}

describe('names in generated code (issue 24.1 and 24.13)', () => {
  const skills = hostileSkills()
  const ids = skills.map((s) => s.model.id)

  it('the main module keeps every id and tool name as data, and runs none of them', async () => {
    const runtime = pathToFileURL(join(REPO_ROOT, 'dist/runtime.js')).href
    const main = generateMainModule(skills, runtime)
    expect(lineCounts(main)[0]).toBe(lineCounts(main)[1])
    const api = (await importCode(main)) as { skills: { id: string; tools: object }[]; sites: object }
    expect(pwned()).toBeUndefined()
    expect(api.skills.map((s) => s.id)).toEqual(ids)
    expect(Object.keys(api.skills[0]!.tools)).toEqual(skills[0]!.model.tools.map((t) => t.name))
    expect(Object.keys(api.sites)).toEqual(ids)
  })

  it('chunks and group chunks have an own key per skill and per tool, `__proto__` included', async () => {
    const group = (await importCode(
      generateGroupChunk(skills.map((s) => generateGroupMember(s, { nodeTools: true, notes: [] }))),
    )) as { skills: Record<string, () => { nodeTools: object; browserTools: object }> }
    expect(pwned()).toBeUndefined()
    expect(Object.keys(group.skills)).toEqual(ids)
    expect(Object.getPrototypeOf(group.skills)).toBe(Object.prototype)
    const protoId = HOSTILE[6]!
    const member = group.skills[protoId]!()
    expect(Object.keys(member.nodeTools)).toEqual(HOSTILE)
    expect(Object.keys(member.browserTools).sort()).toEqual(HOSTILE.map((n) => `${n} (page)`).sort())
    const chunk = generateSkillChunk(skills[0]!, { nodeTools: true, notes: [] })
    const nodeTools = ((await importCode(chunk)) as { nodeTools: object }).nodeTools
    expect(Object.keys(nodeTools)).toEqual(HOSTILE)
    expect(lineCounts(chunk)[0]).toBe(lineCounts(chunk)[1])
  })

  it('the d.ts declares exactly the ids and tools, on the lines it writes, with comments that stay closed', () => {
    const dts = generateDts(skills, '/project/site-skills.d.ts')
    const file = ts.createSourceFile('site-skills.d.ts', dts, ts.ScriptTarget.Latest)
    expect((file as unknown as { parseDiagnostics: unknown[] }).parseDiagnostics).toEqual([])
    expect(lineCounts(dts)[0]).toBe(lineCounts(dts)[1])
    const module = file.statements[0] as ts.ModuleDeclaration
    expect(file.statements).toHaveLength(1)
    const registry = (module.body as ts.ModuleBlock).statements.find(
      (s): s is ts.InterfaceDeclaration => ts.isInterfaceDeclaration(s) && s.name.text === 'SiteSkillRegistry',
    )!
    const names = (members: ts.NodeArray<ts.TypeElement>) => members.map((m) => (m.name as ts.StringLiteral).text)
    expect(names(registry.members)).toEqual(ids)
    const first = (registry.members[0] as ts.PropertySignature).type as ts.TypeLiteralNode
    expect(names(first.members)).toEqual(skills[0]!.model.tools.map((t) => t.name))
    // Every comment is one that codegen wrote: the banner, the reference, a doc block per site and
    // tool, and a one-line doc per argument.
    const comments: string[] = []
    const scanner = ts.createScanner(ts.ScriptTarget.Latest, false, ts.LanguageVariant.Standard, dts)
    for (let token = scanner.scan(); token !== ts.SyntaxKind.EndOfFileToken; token = scanner.scan())
      if (token === ts.SyntaxKind.MultiLineCommentTrivia || token === ts.SyntaxKind.SingleLineCommentTrivia)
        comments.push(scanner.getTokenText())
    const docs = comments.filter((c) => c.startsWith('/**') && c.endsWith('*/'))
    expect(comments).toHaveLength(2 + docs.length)
    const tools = skills.length * skills[0]!.model.tools.length
    // SiteSkillRegistry: a skill's, a tool's and its argument's; SiteSkillSites: a skill's and a
    // tool's; SiteSkillRunTool: the first signature's and one per tool.
    expect(docs).toHaveLength(skills.length + 2 * tools + (skills.length + tools) + (1 + tools))
  })

  it('the type-check harness has one line per tool whatever the names hold', () => {
    const harness = createHarness('/project/site-skills.d.ts', toolTargets(skills.slice(0, 2)))
    expect(lineCounts(harness.text)[0]).toBe(lineCounts(harness.text)[1])
    const count = harness.targets.length
    // The import line, an import per tool, a check per tool, and the final newline's empty line.
    expect(harness.text.split('\n')).toHaveLength(1 + 2 * count + 1)
    const last = count - 1
    expect(statementAt(harness, harness.starts[last]!)).toBe(last)
    const name = harness.targets[last]!.exportName
    expect(harness.text.slice(harness.exportAt[last]! - 1)).toMatch(new RegExp(`^${escapeRegExp(jsValue(name))}\\]`))
  })
})
