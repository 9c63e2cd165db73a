/**
 * A skill `local` on 127.0.0.1 whose one browser tool, `where`, returns the page's URL: for tests of
 * which tab a call runs in (a tree for writeTree).
 */
export const WHERE_SKILL = {
  'local/manifest.json': {
    id: 'local',
    name: 'Local',
    domains: ['127.0.0.1'],
    browserTools: {
      where: {
        description: 'The page URL.',
        path: 'browser-tools/where.js',
        args: {},
        returns: { type: 'string', description: 'location.href' },
      },
    },
  },
  'local/browser-tools/where.js': 'async function () {\n  return location.href\n}\n',
}
