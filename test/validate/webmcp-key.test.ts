import { describe, expect, it } from 'vitest'
import { compileRoots, describe as lines } from '../helpers/compile'
import { makeTempDir, writeTree } from '../helpers/tmp'

const tool = (webmcp: unknown) => ({
  description: 'Reads.',
  path: 'browser-tools/read.js',
  args: {},
  returns: { type: 'string', description: 'Text.' },
  webmcp,
})

describe('the "webmcp" key of a browser tool', () => {
  it('takes "prefer" into the tool\'s metadata and refuses any other value at its place', async () => {
    const { dir, cleanup } = await makeTempDir('webmcp-key-')
    try {
      await writeTree(dir, {
        'good/manifest.json': { id: 'good', name: 'Good', domains: ['a.test'], browserTools: { read: tool('prefer') } },
        'good/browser-tools/read.js': 'async function () {\n  return document.title\n}\n',
        'bad/manifest.json': { id: 'bad', name: 'Bad', domains: ['b.test'], browserTools: { read: tool('always') } },
        'bad/browser-tools/read.js': 'async function () {\n  return document.title\n}\n',
      })
      const result = await compileRoots([dir])
      expect(result.skills.map((s) => s.model.id)).toEqual(['good'])
      expect(result.skills[0]!.model.tools[0]!.webmcp).toBe('prefer')
      // Line 16 of the written manifest holds `"webmcp": "always"`.
      expect(lines(result.reports.flatMap((r) => r.diagnostics))).toEqual([
        'bad/manifest.json:16:7 error tool-schema: browserTools.read: webmcp must be "prefer" (or left out)',
      ])
    } finally {
      await cleanup()
    }
  })
})
