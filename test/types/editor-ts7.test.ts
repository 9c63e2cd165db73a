import { readFileSync } from 'node:fs'
import { cp, rm, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { readmeFile } from '../package/readme'
import { startLanguageServer, positionOf } from '../helpers/lsp'
import { BIN, runNode } from '../helpers/spawn'
import { REPO_ROOT, makeTempDir } from '../helpers/tmp'
import { linkProject, tscOf, versionOf } from '../helpers/typescript'

interface Tool {
  description: string
  path: string
  args: Record<string, { description: string }>
  returns: { description: string }
}
const DEMO = JSON.parse(readFileSync(join(REPO_ROOT, 'learnings/demo-shop/manifest.json'), 'utf8')) as {
  nodeTools: Record<string, Tool>
  browserTools: Record<string, Tool>
}
const SUMMARY = DEMO.nodeTools.price_summary!
const SEARCH = DEMO.nodeTools.search_catalog!

/** What an editor shows of a tool's documentation in Markdown: description, kind and file, then its tags. */
function expectToolDocs(markdown: string, tool: Tool, kind = 'Node tool'): void {
  expect(markdown).toContain(tool.description)
  expect(markdown).toContain(`${kind}: [\`demo-shop/${tool.path}\`](./learnings/demo-shop/${tool.path})`)
  for (const [name, field] of Object.entries(tool.args)) expect(markdown).toContain(`\`${name}\`: ${field.description}`)
  expect(markdown).toContain(tool.returns.description)
}

// The README's agent's call, and the other documented ways to call a tool, as an editor is asked about them
// (the last line being typed).
const EDITED = `import { runTool, sites } from 'virtual:site-skills'
const summary = await sites['demo-shop'].price_summary({ items: [{ price: 3 }, { price: 5 }] })
void runTool('demo-shop', 'price_summary', { items: [] })
void sites['demo-shop'].search_catalog({ query: 'lamp' })
void sites['demo-shop'].
export { summary }
`

let tmp: Awaited<ReturnType<typeof makeTempDir>>
let project = ''
beforeAll(async () => {
  tmp = await makeTempDir('ts7-editor-')
  project = tmp.dir
  // A project as the README sets it up, whose `npm i -D typescript` brought TypeScript 7.
  await linkProject(project, 7)
  await cp(join(REPO_ROOT, 'learnings/demo-shop'), join(project, 'learnings/demo-shop'), { recursive: true })
  await writeFile(join(project, 'package.json'), '{ "type": "module" }\n')
  await writeFile(join(project, 'tsconfig.json'), readmeFile('tsconfig.json'))
  // Getting started: the scaffolded skill, the page server and the agent.
  const made = await runNode([BIN, 'new', 'my-site', '--domain', 'localhost'], { cwd: project, limitMs: 30_000 })
  expect(made.code).toBe(0)
  await writeFile(join(project, 'serve.ts'), readmeFile('serve.ts'))
  await writeFile(join(project, 'agent.ts'), readmeFile('agent.ts'))
  const types = await runNode([BIN, 'types'], { cwd: project, limitMs: 30_000 })
  expect(types.stdout).toBe('wrote site-skills.d.ts (2 skills)\n')
})
afterAll(() => tmp.cleanup())

describe('a project on TypeScript 7 with the README tsconfig', { timeout: 180_000 }, () => {
  it("tsc (7.0.2) accepts the README's agent, and a misspelt tool is the error TypeScript 6 reports", async () => {
    expect(versionOf(7)).toBe('7.0.2')
    const dir = project
    const sound = await runNode([tscOf(7), '-p', dir, '--pretty', 'false'], { cwd: dir, limitMs: 120_000 })
    expect(sound.stdout + sound.stderr).toBe('')
    expect(sound.code).toBe(0)
    await writeFile(join(dir, 'typo.ts'), readmeFile('agent.ts').replace('.page_headings(', '.page_headngs('))
    const seven = await runNode([tscOf(7), '-p', dir, '--pretty', 'false'], { cwd: dir, limitMs: 120_000 })
    const six = await runNode([tscOf(6), '-p', dir, '--pretty', 'false'], { cwd: dir, limitMs: 120_000 })
    // The same errors at the same places (the misspelt tool, then its result's use as any).
    const error =
      /^typo\.ts\(11,41\): error TS2551: Property 'page_headngs' does not exist on type '\{ page_headings<C extends string \| undefined = undefined>\(.*'\. Did you mean 'page_headings'\?\ntypo\.ts\(12,27\): error TS7006: Parameter 'h' implicitly has an 'any' type\.\n$/
    expect(six.stdout).toMatch(error)
    expect(seven.stdout).toMatch(error)
    // Both fail the run; 6 exits 2 (errors, output skipped), 7 exits 1.
    expect([six.code, seven.code]).toEqual([2, 1])
    await rm(join(dir, 'typo.ts'))
  })

  it('site-skills check passes there with TypeScript 7', async () => {
    const run = await runNode([BIN, 'check'], { cwd: project, limitMs: 120_000 })
    expect(run.stderr).toBe('')
    // The demo shop (whose tools the editor is asked about below) and the scaffolded skill both claim
    // localhost: a warning, and the check passes.
    expect(run.stdout).toContain('warning domain-shadowed  learnings/my-site/manifest.json:6:5')
    expect(run.stdout).toMatch(/\n✔ 0 type errors in \d+ tools of 2 skills \(types: site-skills\.d\.ts\)\n$/)
    expect(run.code).toBe(0)
  })

  it("TypeScript 7's language server (tsc --lsp) shows each tool's documentation from the d.ts, no plugin", async () => {
    const server = await startLanguageServer(tscOf(7), project)
    try {
      expect(server.serverInfo).toEqual({ name: 'typescript-go', version: '7.0.2' })
      const file = join(project, 'editing.ts')
      await writeFile(file, EDITED)
      const textDocument = { uri: pathToFileURL(file).href }
      server.open(file)
      type Hover = { contents: { kind: string; value: string } }
      const hover = (needle: string, delta: number) =>
        server.request<Hover>('textDocument/hover', { textDocument, position: positionOf(EDITED, needle, delta) })

      // sites['demo-shop'].price_summary(...): the stub's hover.
      const stub = await hover('price_summary({', 3)
      // Instantiated without a cursor: the call returns the result, not a page.
      expect(stub.contents.value).toMatch(/^```typescript\n\(method\) "price_summary"<undefined>\(args: \{\n/)
      expectToolDocs(stub.contents.value, SUMMARY)

      // runTool('demo-shop', 'price_summary', ...): the call's hover is the tool's own signature and documentation.
      const call = await hover("runTool('demo-shop', 'price_summary'", 2)
      expect(call.contents.value).toContain(
        'runTool: <"demo-shop", "price_summary">(siteId: "demo-shop", tool: "price_summary", args: {',
      )
      expectToolDocs(call.contents.value, SUMMARY)

      // Signature help inside the call's arguments: the call's signature is the tool's, with its description.
      type Help = {
        activeSignature: number
        signatures: { label: string; documentation?: { value: string } }[]
      }
      const help = await server.request<Help>('textDocument/signatureHelp', {
        textDocument,
        position: positionOf(EDITED, "'price_summary', { items", 18),
      })
      const active = help.signatures[help.activeSignature]!
      expect(active.label).toMatch(/^runTool\(siteId: "demo-shop", tool: "price_summary", args: \{ items: /)
      expect(active.documentation?.value).toContain(SUMMARY.description)
      const stubHelp = await server.request<Help>('textDocument/signatureHelp', {
        textDocument,
        position: positionOf(EDITED, "search_catalog({ query: 'lamp'", 16),
      })
      expect(stubHelp.signatures).toHaveLength(1)
      // Signature help carries the description and the file (TypeScript 7 leaves the tags to the hover).
      expect(stubHelp.signatures[0]!.documentation?.value).toBe(
        `${SEARCH.description}\n\nNode tool: [\`demo-shop/${SEARCH.path}\`](./learnings/demo-shop/${SEARCH.path})`,
      )

      // Completion after sites['demo-shop'].: every tool, each resolved with its documentation.
      type Item = { label: string; documentation?: { value: string } | string }
      const list = await server.request<{ items: Item[] } | Item[]>('textDocument/completion', {
        textDocument,
        position: positionOf(EDITED, "void sites['demo-shop'].\n", "void sites['demo-shop'].".length),
      })
      const items = Array.isArray(list) ? list : list.items
      const tools = [...Object.keys(DEMO.nodeTools), ...Object.keys(DEMO.browserTools)]
      expect(items.map((i) => i.label).sort()).toEqual(tools.sort())
      const resolved = await server.request<Item>(
        'completionItem/resolve',
        items.find((i) => i.label === 'price_summary'),
      )
      const doc = resolved.documentation
      expectToolDocs(typeof doc === 'string' ? doc : (doc?.value ?? ''), SUMMARY)
    } finally {
      await server.close()
    }
  })
})
