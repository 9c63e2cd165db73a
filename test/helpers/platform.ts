import { vi } from 'vitest'

/**
 * Modules loaded as on another platform: `process.platform` is `platform` while `load` imports
 * them afresh (vi.resetModules), so a module that chooses its path by platform when it loads
 * chooses as it would there. The platform is restored and the module cache reset again after.
 */
export async function loadAs<T>(platform: NodeJS.Platform, load: () => Promise<T>): Promise<T> {
  const own = Object.getOwnPropertyDescriptor(process, 'platform')!
  vi.resetModules()
  Object.defineProperty(process, 'platform', { ...own, value: platform })
  try {
    return await load()
  } finally {
    Object.defineProperty(process, 'platform', own)
    vi.resetModules()
  }
}
