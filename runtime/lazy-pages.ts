/**
 * What registry.ts imports to page a result (see lazy-catalog.ts for why a module of its own):
 * host-side code imports pages.ts statically, and a chunk that is both would need the bundler's
 * runtime helpers, which a browser build of the runtime cannot load.
 */
export { pageResult } from './pages'
