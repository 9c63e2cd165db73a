/** Imports a package that bundlers must not follow (optional, or Node-only). */
export async function importOptional<T>(name: string): Promise<T> {
  return import(/* @vite-ignore */ /* webpackIgnore: true */ name) as Promise<T>
}
