import { dirname, join } from 'node:path'
import type { Node, Program, SourceFile } from 'typescript'
import type { CompiledSkill } from '../compiler/compile'
import { jsValue } from '../codegen/literal'
import { isTypeScript, toPosix } from '../compiler/paths'
import type { TypeScriptApi } from './typescript'

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

/** The generated file that holds every checked tool up against its manifest, one line per tool. */
export interface Harness {
  file: string
  text: string
  /** The tool of each line (0-based) from the first tool line on. */
  lines: ToolTarget[]
  firstLine: number
}

/** Lives next to the generated d.ts, so it resolves `unplugin-site-skills/tool` as the d.ts does. */
export function createHarness(dtsFile: string, targets: readonly ToolTarget[]): Harness {
  const file = toPosix(join(dirname(dtsFile), '__site-skills-check__.ts'))
  const head = "import type { BrowserTool, NodeTool } from 'unplugin-site-skills/tool'"
  const imports = targets.map((t, i) => `import * as t${i} from ${jsValue(t.file)}`)
  const checks = targets.map((t, i) => {
    const type = t.kind === 'node' ? 'NodeTool' : 'BrowserTool'
    return `void (t${i}[${jsValue(t.exportName)}] satisfies ${type}<${jsValue(t.siteId)}, ${jsValue(t.tool)}>)`
  })
  const text = [head, ...imports, ...checks, ''].join('\n')
  return { file, text, lines: [...targets], firstLine: 1 + imports.length }
}

/** The tool a harness position stands for, or undefined for the import lines. */
export function targetAt(harness: Harness, line0: number): ToolTarget | undefined {
  return harness.lines[line0 - harness.firstLine]
}

/** Where the tool's export is declared: its name, else the declaration's start. */
export function exportDeclaration(
  ts: TypeScriptApi,
  program: Program,
  harness: SourceFile,
  line0: number,
): { file: SourceFile; start: number } | undefined {
  const statement = harness.statements.find((s) => harness.getLineAndCharacterOfPosition(s.getStart()).line === line0)
  let access: Node | undefined
  const visit = (n: Node): void => {
    if (!access && ts.isElementAccessExpression(n)) access = n.argumentExpression
    else ts.forEachChild(n, visit)
  }
  if (statement) visit(statement)
  if (!access) return undefined
  const checker = program.getTypeChecker()
  let symbol = checker.getSymbolAtLocation(access)
  if (symbol && symbol.flags & ts.SymbolFlags.Alias) symbol = checker.getAliasedSymbol(symbol)
  const declaration = symbol?.declarations?.[0]
  if (!declaration) return undefined
  const name = (declaration as { name?: Node }).name
  return { file: declaration.getSourceFile(), start: (name ?? declaration).getStart() }
}
