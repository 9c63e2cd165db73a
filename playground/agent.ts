import type { BrowserTarget } from 'unplugin-site-skills/runtime'
import {
  dispatchToolCall,
  loadLearnedContext,
  siteSkillsForUrl,
  sites,
  skills,
  toolDefinitions,
} from 'virtual:site-skills'

export type Log = (line?: string) => void

/** What one run of the agent found, for the caller to check. */
export interface AgentReport {
  matched: string[]
  notes: number
  tools: string[]
  pageTitle: string
  productsOnPage: number
  searchResults: number
  cheapest?: string
  cartCount: number
  modelTools: number
}

const indent = (text: string, by = '    ') => text.replace(/^/gm, by)

/**
 * An agent's loop over one page, the way a browser agent uses site skills: match the URL, put the
 * learned context in its prompt, then call the skill's tools (in Node, and in the page over CDP).
 */
export async function runAgent(pageUrl: string, page: BrowserTarget, log: Log): Promise<AgentReport> {
  log(`${skills.length} site skills compiled into the agent: ${skills.map((s) => s.id).join(', ')}`)

  const matched = siteSkillsForUrl(pageUrl).map((s) => s.id)
  log(`\n1. match ${pageUrl}\n   -> ${matched.join(', ') || '(no skill)'}`)
  if (!matched.includes('demo-shop')) throw new Error(`demo-shop should match ${pageUrl}`)

  const context = await loadLearnedContext(pageUrl)
  log(
    `\n2. learned context for ${context.domain}: ${context.siteName} (${context.knowledge.length} note, ${context.tools.length} tools)`,
  )
  for (const note of context.knowledge) log(`${indent(note.content.split('\n').slice(0, 6).join('\n'))}\n    ...`)
  for (const tool of context.tools)
    log(`   - ${tool.toolName} (${tool.toolType}): ${tool.description}\n     ${tool.example}`)

  const shop = sites['demo-shop']
  const info = await shop.page_info({ waitForReady: true }, page)
  log(`\n3. browser tool page_info -> ${JSON.stringify(info)}`)

  const listing = await shop.read_products({ inStockOnly: false }, page)
  const onPage = listing.products ?? []
  log(`\n4. browser tool read_products -> ${onPage.length} products, first: ${JSON.stringify(onPage[0])}`)

  const origin = new URL(pageUrl).origin
  const found = await shop.search_catalog(
    { query: 'lamp', sort: 'price-asc', maxResults: 5 },
    { baseUrl: origin, fetch },
  )
  log(
    `\n5. Node tool search_catalog("lamp") -> ${found.map((p) => `${p.name} (${p.price} ${p.currency})`).join(', ') || '(nothing)'}`,
  )

  const summary = await shop.price_summary({ items: onPage.map((p) => ({ id: p.id, price: p.price ?? 0 })) })
  log(`\n6. Node tool price_summary -> ${JSON.stringify(summary)}`)

  const target = onPage.find((p) => p.inStock) ?? onPage[0]
  const cart = await shop.add_to_cart({ productId: String(target?.id), quantity: 2 }, page)
  log(`\n7. browser tool add_to_cart(${target?.id}, 2) -> ${JSON.stringify(cart)}`)

  const defs = toolDefinitions(pageUrl)
  const viaModel = await dispatchToolCall('demo-shop__page_info', { waitForReady: null }, page)
  log(
    `\n8. ${defs.anthropic.length} tool definitions for a model (MCP, Anthropic, OpenAI strict); a model's call of demo-shop__page_info -> ${JSON.stringify(viaModel)}`,
  )

  return {
    matched,
    notes: context.knowledge.length,
    tools: context.tools.map((t) => t.toolName),
    pageTitle: String((info as { title?: string }).title ?? ''),
    productsOnPage: onPage.length,
    searchResults: found.length,
    cheapest: found[0]?.name,
    cartCount: Number(cart.cartCount ?? NaN),
    modelTools: defs.anthropic.length,
  }
}
