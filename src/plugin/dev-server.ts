import type { ViteDevServer } from 'vite'
import { LOG_PREFIX, PLUGIN_NAME } from '../ids'
import type { BuildError } from './build-error'
import type { RootContext } from './root-context'
import { rootPath } from '../compiler/discover/roots'

/** Changes closer together than this make one compile. */
const DEBOUNCE_MS = 30
/**
 * Vite's watcher (chokidar) drops a second `change` of one file within 50 ms of the first (its
 * per-file throttle emits no trailing event), so an edit right after another would be lost: once a
 * burst is over and that window with it, one more compile looks again. It compares the files'
 * stamps (one `stat` per file); nothing else runs while the skills stay as they are.
 */
const RECHECK_MS = 120

/** What the dev server's plugin hooks call: `stop` from `closeBundle`, `beforeLoad` before a generated module loads. */
export interface AttachedDevServer {
  stop: () => void
  /**
   * Without a watcher (`server.watch: null`) nothing tells the plugin of an edit: each load first
   * compiles again (the compiler compares the files' stamps, so unchanged skills cost a `stat`
   * per file; loads that come while one waits share it) and reloads what changed. Absent with a watcher.
   */
  beforeLoad?: () => Promise<void>
}

/**
 * Keeps `virtual:site-skills` live in Vite's dev server: watches the roots, recompiles after a
 * burst of changes (only changed skills are revalidated and re-bundled), reloads the generated
 * modules that changed, and shows invalid skills in the error overlay without stopping.
 * Warnings and failures go to Vite's logger (there is no plugin context here).
 */
export function attachDevServer(server: ViteDevServer, ctx: RootContext): AttachedDevServer {
  const { roots, dts } = ctx.options
  const { logger } = server.config
  const dirs = roots.map(rootPath)
  server.watcher.add(dts ? [...dirs, dts] : dirs)
  let debounce: ReturnType<typeof setTimeout> | undefined
  let recheck: ReturnType<typeof setTimeout> | undefined
  let running = Promise.resolve()

  // One refresh at a time; each one runs even if the one before it failed unexpectedly.
  const flush = () => {
    running = running
      .then(async () => {
        const { error, skills, warnings } = await ctx.refresh()
        for (const warning of warnings) logger.warn(warning.message)
        if (skills.length === 0) return
        reload(server, ctx, skills)
        if (error) showError(server, error)
      })
      .catch((error: unknown) =>
        logger.error(`${LOG_PREFIX} ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`),
      )
    return running
  }
  let queued: Promise<void> | undefined
  const beforeLoad = () => {
    queued ??= running.then(() => {
      queued = undefined
      return flush()
    })
    return queued
  }

  server.watcher.on('all', (event, file) => {
    if (dts && file === dts) {
      if (event === 'unlink') void ctx.writeDts()
      return
    }
    if (!ctx.isWatched(file)) return
    clearTimeout(debounce)
    clearTimeout(recheck)
    debounce = setTimeout(flush, DEBOUNCE_MS)
    recheck = setTimeout(flush, RECHECK_MS)
  })
  const stop = () => {
    clearTimeout(debounce)
    clearTimeout(recheck)
  }
  return server.config.server.watch === null ? { stop, beforeLoad } : { stop }
}

function reload(server: ViteDevServer, ctx: RootContext, skills: readonly string[]): void {
  const timestamp = Date.now()
  for (const environment of Object.values(server.environments)) {
    const graph = environment.moduleGraph
    const chunks = ctx.moduleIds.skills(skills).map((id) => graph.getModuleById(id))
    // The skills' own files (Node tools) too, in case Vite's watcher missed their change.
    const files = ctx.filesOf(skills).flatMap((file) => [...(graph.getModulesByFile(file) ?? [])])
    for (const mod of [...chunks, ...files]) if (mod) graph.invalidateModule(mod, new Set(), timestamp, true)
    const main = graph.getModuleById(ctx.moduleIds.main)
    if (!main) continue
    // The main module is reloaded: importers that accept it get an HMR update, others a full reload.
    graph.invalidateModule(main, new Set(), timestamp, true)
    void environment.reloadModule(main)
  }
}

/**
 * Shows the error in the overlay as Vite would show it when a module fails to load: the message
 * (every diagnostic with its frame and hint), the first one's location as the file, and the stack
 * (every error's absolute location, each a link). No `frame`: the overlay would take every code
 * frame out of the message to show only that one.
 */
function showError(server: ViteDevServer, error: BuildError): void {
  server.environments.client.hot.send({
    type: 'error',
    err: {
      message: error.message,
      stack: error.stack ?? '',
      id: error.id,
      loc: error.loc,
      frame: '',
      plugin: PLUGIN_NAME,
    },
  })
}
