import { join } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { build } from 'vite'
import { launchBrowser } from '../runtime/launch'
import { playgroundConfig } from './config'
import { serveFolder } from './serve'

const here = fileURLToPath(new URL('.', import.meta.url))

/**
 * `npm start`: builds the playground agent with Vite and the plugin, serves the demo shop from
 * learnings/demo-shop/site, launches headless Chromium and runs the agent against the page.
 */
async function main(): Promise<void> {
  const started = performance.now()
  await build({
    ...playgroundConfig(),
    configFile: false,
    logLevel: 'warn',
    build: { ssr: 'agent.ts', outDir: 'dist/agent', emptyOutDir: true },
  })
  console.log(`built playground/dist/agent with unplugin-site-skills in ${Math.round(performance.now() - started)} ms`)

  const site = await serveFolder(join(here, '../learnings/demo-shop/site'))
  const browser = await launchBrowser()
  try {
    const page = await browser.newPage(site.url)
    console.log(`demo shop at ${site.url}, headless ${browser.executablePath} on port ${browser.port}`)
    const agent = (await import(pathToFileURL(join(here, 'dist/agent/agent.js')).href)) as typeof import('./agent')
    const report = await agent.runAgent(site.url, page.client, (line = '') => console.log(line))
    if (report.productsOnPage === 0 || report.searchResults === 0 || !(report.cartCount > 0))
      throw new Error(`unexpected results: ${JSON.stringify(report)}`)
    console.log(
      `\nok: ${report.matched.join(', ')} matched, ${report.tools.length} tools, ${report.productsOnPage} products read, cart at ${report.cartCount} (${Math.round(performance.now() - started)} ms)`,
    )
  } finally {
    await browser.close()
    await site.close()
  }
}

main().catch((error: unknown) => {
  console.error(`\nplayground failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`)
  process.exitCode = 1
})
