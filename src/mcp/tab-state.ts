import type { CallToolResult } from '@modelcontextprotocol/server'
import { compactText } from '../../runtime/internal'
import type { Catalog } from './tool-catalog'
import type { ClientTabs } from './clients'
import { noteLinks } from './site-context'
import type { TabInfo } from './tabs'

/** An own tool's result: compact text for the model (SPEC 12), the value as structured content. */
function stateResult(value: object, links: CallToolResult['content'] = []): CallToolResult {
  return {
    content: [{ type: 'text', text: compactText(value) }, ...links],
    structuredContent: value as Record<string, unknown>,
  }
}

/** A client's tab, the tabs it may use, and the skills of the tab, with links to their notes. */
export function tabState(catalog: Catalog, client: ClientTabs, tab: TabInfo | undefined): CallToolResult {
  const skills = tab ? catalog.state.api.siteSkillsForUrl(tab.url) : []
  const tools = catalog.forUrl(tab?.url)
  const value = {
    tab: tab ? client.view(tab) : null,
    tabs: client.visible().map(client.view),
    skills: skills.map((s) => ({
      id: s.id,
      name: s.name,
      tools: tools.filter((t) => t.ref.siteId === s.id).map((t) => t.def.name),
    })),
  }
  return stateResult(value, noteLinks(skills))
}

/** The tabs a client may use, which one is active, which it opened, and the skills of each. */
export function tabsList(catalog: Catalog, client: ClientTabs): CallToolResult {
  const active = client.active()
  return stateResult({
    active: active ? client.view(active).id : null,
    tabs: client.visible().map((tab) => ({
      ...client.view(tab),
      active: tab.id === active?.id,
      opened: client.opened(tab.id),
      skills: catalog.state.api.siteSkillsForUrl(tab.url).map((s) => s.id),
    })),
  })
}
