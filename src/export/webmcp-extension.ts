import type { CompileResult, CompiledSkill } from '../compiler/compile'
import { createRegistryData } from '../codegen/meta'
import { webMcpNames, webMcpScript } from '../../runtime/internal'
import type { AgentSkillFolder } from './agent-skill'
import { EXPORT_MARKER } from './agent-skill'
import { matchPatterns } from './match-patterns'

/**
 * `site-skills export --webmcp`: a Manifest V3 extension whose content scripts (the extensions'
 * isolated world, at document start, top frames only) register the chosen skills' browser tools as
 * WebMCP tools on the pages of their skills. One script per skill, made by the runtime's
 * webmcp-script.ts; Node tools have no place in a page and are left out. Pure: the same skills and
 * version give the same bytes.
 */

/** What the export writes, and what it left out. */
export interface WebMcpExtension {
  folder: AgentSkillFolder
  skills: { id: string; script: string; tools: string[]; matches: string[] }[]
  /** `siteId/tool` of every Node tool of the chosen skills. */
  nodeTools: string[]
  /** Chosen skills without a browser tool (nothing to register). */
  empty: string[]
}

/** A version Chrome takes (one to four integers up to 65535): the package's, without a pre-release. */
function extensionVersion(version: string): string {
  const parts = version.split(/[-+]/)[0]!.split('.').slice(0, 4)
  const numbers = parts.map((p) => Math.min(65535, Number.parseInt(p, 10) || 0))
  return numbers.length ? numbers.join('.') : '0'
}

/** A content script's file name for a skill id: letters, digits, `-._`, not starting with `_` (Chrome's). */
function scriptNames(ids: readonly string[]): Map<string, string> {
  const names = new Map<string, string>()
  const taken = new Set<string>()
  for (const id of ids) {
    const base = id.replace(/[^A-Za-z0-9.-]+/g, '-').replace(/^[-.]+/, '') || 'skill'
    let name = base
    for (let n = 2; taken.has(name.toLowerCase()); n++) name = `${base}-${n}`
    taken.add(name.toLowerCase())
    names.set(id, `skills/${name}.js`)
  }
  return names
}

const json = (value: unknown) => `${JSON.stringify(value, null, 2)}\n`

function describeExtension(ids: readonly string[]): string {
  const text = `Registers the browser tools of site skills as WebMCP tools on their sites: ${ids.join(', ')}.`
  return text.length <= 132 ? text : `${text.slice(0, 131)}…`
}

/** The extension of the chosen skills (`sites`: only those ids; all by default). */
export function planWebMcpExtension(
  result: CompileResult,
  version: string,
  sites?: readonly string[],
): WebMcpExtension {
  const metas = createRegistryData(result.skills).skills
  const names = webMcpNames(metas)
  const chosen = result.skills
    .map((compiled, i): [CompiledSkill, (typeof metas)[number]] => [compiled, metas[i]!])
    .filter(([{ model }]) => !sites?.length || sites.includes(model.id))
  const files = scriptNames(chosen.map(([{ model }]) => model.id))
  const out: WebMcpExtension = { folder: { name: '', id: '', files: [] }, skills: [], nodeTools: [], empty: [] }
  for (const [compiled, skill] of chosen) {
    const sources = new Map(Object.entries(compiled.browser))
    for (const tool of compiled.model.tools) if (tool.kind === 'node') out.nodeTools.push(`${skill.id}/${tool.name}`)
    const { script, tools } = webMcpScript([{ skill, sources }], names)
    if (!tools.length) {
      out.empty.push(skill.id)
      continue
    }
    const matches = matchPatterns(skill.domains, skill.urls)
    out.skills.push({ id: skill.id, script: files.get(skill.id)!, tools: tools.map((t) => t.name), matches })
    out.folder.files.push({ path: files.get(skill.id)!, content: script })
  }
  const manifest = {
    manifest_version: 3,
    name: 'Site skills (WebMCP)',
    version: extensionVersion(version),
    description: describeExtension(out.skills.map((s) => s.id)),
    content_scripts: out.skills.map((s) => ({ matches: s.matches, js: [s.script], run_at: 'document_start' })),
  }
  out.folder.files.push({ path: 'manifest.json', content: json(manifest) })
  out.folder.files.push({
    path: EXPORT_MARKER,
    content: json({ generator: 'unplugin-site-skills', format: 'webmcp', version }),
  })
  out.folder.files.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0))
  return out
}
