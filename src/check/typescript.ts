import { createRequire } from 'node:module'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'

/** The TypeScript compiler API, as much of it as `check` uses. */
export type TypeScriptApi = typeof import('typescript')

/** TypeScript is an optional peer dependency: found in none of the places looked at. */
export class TypeScriptMissingError extends Error {
  constructor(places: readonly string[]) {
    super(
      `site-skills check needs TypeScript to type-check tools, and found none from ${places.join(', ')}. ` +
        'Install it in your project: npm install --save-dev typescript',
    )
  }
}

/**
 * Loads the user's TypeScript: resolved from each folder in turn (the working directory first,
 * then the roots), so the version the project compiles with is the one that checks its tools.
 */
export async function loadTypeScript(from: readonly string[]): Promise<TypeScriptApi> {
  for (const dir of from) {
    let path: string
    try {
      path = createRequire(join(dir, 'package.json')).resolve('typescript')
    } catch {
      continue
    }
    const loaded = (await import(pathToFileURL(path).href)) as TypeScriptApi & { default?: TypeScriptApi }
    return loaded.default ?? loaded
  }
  throw new TypeScriptMissingError(from)
}
