import { dirname, join } from 'node:path'
import type { CompiledSkill } from '../compiler/compile'
import { jsValue } from '../codegen/literal'
import { isTypeScript, toPosix } from '../compiler/fs/paths'

/** One tool to check against its manifest entry. */
export interface ToolTarget {
  siteId: string
  tool: string
  kind: 'node' | 'browser'
  /** Real path of the tool's file, forward slashes. */
  file: string
  /** The export that is the tool: its `callable`, or `default` for a browser tool. */
  exportName: string
  /** A bare function expression (not a module): read with `export default ` put in front. */
  bare: boolean
}

export function toolTargets(skills: readonly CompiledSkill[]): ToolTarget[] {
  return skills.flatMap(({ model }) =>
    model.tools.map((t) => ({
      siteId: model.id,
      tool: t.name,
      kind: t.kind,
      file: toPosix(t.absPath),
      exportName: t.kind === 'node' ? (t.callable ?? '') : 'default',
      bare: t.kind === 'browser' && !t.module,
    })),
  )
}

const TS_CHECK_RE = /^(?:\s|\/\/[^\n]*\n|\/\*[\s\S]*?\*\/)*?\/\/\s*@ts-check\b/

/** Whether TypeScript checks the file: TypeScript, or JavaScript that opts in with `// @ts-check`. */
export function isChecked(file: string, text: string): boolean {
  return isTypeScript(file) || TS_CHECK_RE.test(text.replace(/^\uFEFF/, ''))
}

/** The generated file that holds every checked tool up against its manifest, one statement per tool. */
export interface Harness {
  file: string
  text: string
  /** The tool each check statement is about, in order. */
  targets: ToolTarget[]
  /** Per check statement: its offset in `text`. */
  starts: number[]
  /** Per check statement: the offset of the export's name (inside its quotes), which names the tool's export. */
  exportAt: number[]
}

/** Lives next to the generated d.ts, so it resolves `unplugin-site-skills/tool` as the d.ts does. */
export function createHarness(dtsFile: string, targets: readonly ToolTarget[]): Harness {
  const file = toPosix(join(dirname(dtsFile), '__site-skills-check__.ts'))
  const head = "import type { BrowserTool, NodeTool } from 'unplugin-site-skills/tool'"
  const imports = targets.map((t, i) => `import * as t${i} from ${jsValue(t.file)}`)
  let text = `${[head, ...imports].join('\n')}\n`
  const starts: number[] = []
  const exportAt: number[] = []
  targets.forEach((t, i) => {
    const type = t.kind === 'node' ? 'NodeTool' : 'BrowserTool'
    const access = `void (t${i}[`
    starts.push(text.length)
    exportAt.push(text.length + access.length + 1)
    text += `${access}${jsValue(t.exportName)}] satisfies ${type}<${jsValue(t.siteId)}, ${jsValue(t.tool)}>)\n`
  })
  return { file, text, targets: [...targets], starts, exportAt }
}

/** Which check statement an offset of the harness is in, or undefined for the imports. */
export function statementAt(harness: Harness, offset: number): number | undefined {
  let index: number | undefined
  for (let i = 0; i < harness.starts.length && harness.starts[i]! <= offset; i++) index = i
  return index
}
