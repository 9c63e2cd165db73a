import type { ValueSchema } from '../../runtime/index'
import type { SkillModel, ToolModel } from '../compiler/model'
import { printValueType } from '../codegen/value-type'
import { oneLine, shQuote } from './clip-text'

/** Where a skill's own files go inside its Agent Skills folder: the root `site-skills run` is given. */
export const SOURCE_ROOT = 'assets/learnings'

/**
 * The package the scripts run (`npx --package`): the version that wrote them, which npx takes from
 * the project when it holds that version, else from the registry.
 */
export function packageSpec(version: string): string {
  return `unplugin-site-skills@${version}`
}

const HELP_END = 'SITE_SKILLS_HELP'

/** How a tool is called from the skill's folder, with its first example's args when it has one. */
export function scriptCall(tool: ToolModel, script: string): string {
  const args = tool.examples?.[0]?.args ?? {}
  const browser = tool.kind === 'browser' ? ' --cdp HOST:PORT --target URL-PART' : ''
  return `sh ${script} --args ${shQuote(JSON.stringify(args))}${browser}`
}

function argLine(name: string, schema: ValueSchema): string {
  const need = schema.required ? 'required' : 'optional'
  const about = schema.description ? `: ${oneLine(schema.description)}` : ''
  return `  ${name}  ${printValueType(schema)}, ${need}${about}`
}

/** The text `--help` prints: usage, what the tool does, its arguments and result, exit codes. */
function helpText(skill: SkillModel, tool: ToolModel, script: string): string {
  const target =
    tool.kind === 'browser'
      ? ' --cdp HOST:PORT [--target ID|URL-PART]\n       (or --cdp ws://...; $SITE_SKILLS_CDP and ' +
        '$SITE_SKILLS_TARGET give them once)'
      : ' [--url URL] [--cdp HOST:PORT [--target ID|URL-PART]]'
  const args = Object.entries(tool.args)
  const lines = [
    `usage: sh ${script} [--args JSON]${target}`,
    '',
    `${skill.id} -> ${tool.name} (${tool.kind} tool): ${oneLine(tool.description)}`,
    '',
    args.length ? 'arguments (one JSON object, --args):' : 'arguments: none (--args {})',
    ...args.map(([name, schema]) => argLine(name, schema)),
    `result (compact text on stdout, a page at a time past its budget): ${printValueType(tool.returns)}${
      tool.returns.description ? `: ${oneLine(tool.returns.description)}` : ''
    }`,
    'exit codes: 0 result on stdout; 1 the tool failed ("site-skills: CODE: message" on stderr); 2 bad usage',
  ]
  return lines.filter((line) => line !== HELP_END).join('\n')
}

/**
 * A POSIX sh script that runs one tool through `npx site-skills run`, on the skill's own files in
 * `assets/learnings` beside it, passing the caller's flags on (`--args`, `--cdp`, `--target`, `--url`).
 */
export function generateScript(skill: SkillModel, tool: ToolModel, script: string, version: string): string {
  const run = ['site-skills', 'run', skill.id, tool.name].map(shQuote).join(' ')
  return `#!/bin/sh
# ${oneLine(`${skill.id} -> ${tool.name}`)}: a ${tool.kind} tool, run through \`npx site-skills run\`.
# Written by \`site-skills export --agent-skills\` (unplugin-site-skills ${version}); see ../SKILL.md.
set -eu
case "\${1-}" in
  -h | --help)
    cat <<'${HELP_END}'
${helpText(skill, tool, script)}
${HELP_END}
    exit 0
    ;;
esac
root=$(CDPATH='' cd -- "$(dirname -- "$0")/../${SOURCE_ROOT}" && pwd)
exec npx --yes --package=${packageSpec(version)} -- ${run} --root "$root" --format compact \\
  \${SITE_SKILLS_CDP:+--cdp "$SITE_SKILLS_CDP"} \${SITE_SKILLS_TARGET:+--target "$SITE_SKILLS_TARGET"} "$@"
`
}
