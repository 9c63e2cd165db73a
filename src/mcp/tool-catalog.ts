import type { Icon, Tool } from '@modelcontextprotocol/server'
import { urlMatchesPaths } from '../../runtime/internal'
import { isReadFailure } from '../compiler/fs/files'
import { readFileInside } from '../compiler/fs/inside'
import type { Tokenizer } from '../tokens/tokenizer'
import { listedTools, modelText, type SiteTool } from '../listing/site-tool'
import type { WatchedState } from './watched-skills'
import { type ResultChecker, createResultChecker } from './tool-results'

/** What `tools/list` offers (SPEC 11): the active tab's tools, every tool, or a fixed set to search them. */
export type ToolsMode = 'page' | 'all' | 'search'

export const TOOLS_MODES: readonly ToolsMode[] = ['page', 'all', 'search']

/** The served tools of one compile of the skills, looked up by name and by page. */
export interface Catalog {
  state: WatchedState
  /** Every served tool: skills in root and directory order, each skill's tools in manifest order. */
  tools: SiteTool[]
  byName: ReadonlyMap<string, SiteTool>
  /** The tools of the skills that match a URL, in the order of the match (none without a URL). */
  forUrl: (url: string | undefined) => SiteTool[]
  /** The mode served with these skills: the one asked for, or the default's choice. */
  mode: ToolsMode
  /** The tokens of the `all` list, when the default counted them. */
  tokens?: number
  /** Checks its tools' results (their compiled schemas go with the catalog). */
  checker: ResultChecker
}

export interface CatalogOptions {
  /** `--tools`; absent: `all` while its list stays within `budget` tokens, else `search`. */
  mode?: ToolsMode
  budget: number
  tokenizer: () => Promise<Tokenizer>
  /** The server's own tools of the `all` mode, counted with the site tools. */
  ownTools: readonly Tool[]
}

/** Skill icons: `icon.svg`, else `icon.png`, in the skill folder, sent as data URIs. */
const ICON_FILES = [
  ['icon.svg', 'image/svg+xml'],
  ['icon.png', 'image/png'],
] as const
/** Larger icons are left out: they travel in every `tools/list`. */
const ICON_LIMIT = 64 * 1024

async function iconOf(realDir: string): Promise<Icon[] | undefined> {
  for (const [file, mimeType] of ICON_FILES) {
    // Through the file guard: inside the skill folder, a regular file, at most ICON_LIMIT bytes.
    let found: ReturnType<typeof readFileInside>
    try {
      found = readFileInside(realDir, file, ICON_LIMIT)
    } catch {
      continue
    }
    if (!('read' in found) || isReadFailure(found.read)) continue
    const data = found.read.toString('base64')
    return [{ src: `data:${mimeType};base64,${data}`, mimeType, ...(file === 'icon.svg' ? { sizes: ['any'] } : {}) }]
  }
  return undefined
}

async function createCatalog(state: WatchedState, options: CatalogOptions): Promise<Catalog> {
  const icons = new Map<string, Icon[] | undefined>()
  await Promise.all(state.skills.map(async (s) => icons.set(s.model.id, await iconOf(s.model.realDir))))
  const tools = listedTools(state.api.skills, (id) => icons.get(id))
  const byName = new Map(tools.map((t) => [t.def.name, t]))
  const bySkill = new Map<string, SiteTool[]>()
  for (const tool of tools) {
    const own = bySkill.get(tool.ref.siteId)
    if (own) own.push(tool)
    else bySkill.set(tool.ref.siteId, [tool])
  }
  // The tools of the page: its skills' tools, less those whose own `urls` do not match its path.
  const forUrl = (url: string | undefined) =>
    url
      ? state.api
          .siteSkillsForUrl(url)
          .flatMap((s) => (bySkill.get(s.id) ?? []).filter((t) => urlMatchesPaths(url, [t.meta.urls])))
      : []
  const checker = createResultChecker()
  if (options.mode) return { state, tools, byName, forUrl, mode: options.mode, checker }
  const tokenizer = await options.tokenizer()
  const all = [...options.ownTools, ...tools.map((t) => t.def)]
  const tokens = all.reduce((n, def) => n + tokenizer.count(modelText(def)), 0)
  return { state, tools, byName, forUrl, mode: tokens > options.budget ? 'search' : 'all', tokens, checker }
}

/** The catalog of each compile, made once. */
export function createCatalogs(options: CatalogOptions): (state: WatchedState) => Promise<Catalog> {
  const made = new WeakMap<WatchedState, Promise<Catalog>>()
  return (state) => {
    let catalog = made.get(state)
    if (!catalog) {
      catalog = createCatalog(state, options)
      made.set(state, catalog)
    }
    return catalog
  }
}
