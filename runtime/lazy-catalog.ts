/**
 * What errors.ts imports on the first error. A module of its own, imported only with `import()`:
 * the catalog itself is also imported statically (host-side code, the launcher), and a chunk that
 * is both would be handed out through the bundler's runtime helpers, which a browser build of the
 * runtime cannot load.
 */
export { errorMessage } from './error-catalog'
