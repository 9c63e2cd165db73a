import { listed, q } from './text'

/**
 * The messages of the codes a synchronous getter throws (`sites.typo`): part of the first load,
 * so that they are whole without waiting for the catalog.
 */
export function notFoundMessage(
  code: 'skill-not-found' | 'tool-not-found',
  d: { known?: readonly string[] } | { name: string },
): string {
  if ('name' in d) return `no site tool is named ${q(d.name)}`
  const known = d.known ? ` ${listed(d.known)}` : ''
  return code === 'skill-not-found' ? `no such site skill${known}` : `no such tool${known}`
}
