/**
 * unplugin-site-skills/tool: helpers for writing tools. At run time each one returns the function
 * it is given; the types (in the package's tool.d.ts) check that function against its manifest.
 * Nothing here imports anything, so a browser tool that uses a helper still bundles to one
 * self-contained function.
 */

type AnyFunction = (...args: never[]) => unknown

/** A Node tool `(ctx, args) => result`, checked against the manifest entry of `site`/`tool`. */
export function defineNodeTool<F extends AnyFunction>(_site: string, _tool: string, fn: F): F {
  return fn
}

/** A browser tool `(args) => result`, checked against the manifest entry of `site`/`tool`. */
export function defineBrowserTool<F extends AnyFunction>(_site: string, _tool: string, fn: F): F {
  return fn
}
