/** What browser.ts imports to connect by address (see lazy-catalog.ts for why a module of its own). */
export { openTarget } from './connect'
