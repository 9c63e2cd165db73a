import type { SkillModel, ToolModel } from '../compiler/model'
import { printFields, printReturnsType } from '../codegen/value-type'
import { scriptCall } from './script'
import { codeSpan, oneLine } from './clip-text'

/** Examples shown in a tool's reference page. */
const EXAMPLES_SHOWN = 3

function examplesSection(tool: ToolModel, script: string): string[] {
  const examples = (tool.examples ?? []).slice(0, EXAMPLES_SHOWN)
  if (!examples.length) return []
  const lines = ['', '## Examples', '']
  for (const example of examples) {
    const on = example.url ? ` on ${codeSpan(example.url)}` : ''
    const call = scriptCall({ ...tool, examples: [example] }, script)
    lines.push(`- ${codeSpan(example.name)}${on}: ${codeSpan(call)}`)
  }
  return lines
}

/** `references/tools/<tool>.md`: what one tool does, how to run it, its arguments and its result as types. */
export function generateToolReference(skill: SkillModel, tool: ToolModel, script: string): string {
  const kind = tool.kind === 'browser' ? 'Browser tool (runs in the open page)' : 'Node tool'
  const timeout = tool.timeoutMs ? ` Times out after ${tool.timeoutMs.toLocaleString('en-US')} ms.` : ''
  const lines = [
    `# ${oneLine(tool.name)}`,
    '',
    `${kind} of ${oneLine(skill.name)} (site skill ${codeSpan(skill.id)}).${timeout}`,
    '',
    oneLine(tool.description),
    '',
    `Run: ${codeSpan(scriptCall(tool, script))}`,
    '',
    '## Arguments',
    '',
    Object.keys(tool.args).length ? 'One JSON object, passed as `--args`:' : 'None: pass `--args {}` or leave it out.',
    '',
    '```ts',
    printFields(tool.args, ''),
    '```',
    '',
    '## Result',
    '',
    'Printed as JSON on standard output:',
    '',
    '```ts',
    printReturnsType(tool.returns, ''),
    '```',
    ...examplesSection(tool, script),
  ]
  return `${lines.join('\n')}\n`
}
