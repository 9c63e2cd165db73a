import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { makeTempDir, writeTree } from '../helpers/tmp'
import { runBin } from '../helpers/spawn'

let root: string
let cleanup: () => Promise<void>

const tool = (annotations: unknown) => ({
  description: 'Reads the title.',
  path: 'browser-tools/read.js',
  args: {},
  returns: { type: 'string', description: 'The title.' },
  annotations,
})

function skill(id: string, annotations: unknown) {
  return {
    [`${id}/manifest.json`]: {
      id,
      name: id,
      domains: [`${id}.example.com`],
      browserTools: { read: tool(annotations) },
    },
    [`${id}/browser-tools/read.js`]: 'async function () {\n  return document.title\n}\n',
  }
}

beforeAll(async () => {
  ;({ dir: root, cleanup } = await makeTempDir('annotations-'))
  await writeTree(`${root}/ok`, skill('good', { title: 'Read', readOnlyHint: true, idempotentHint: true }))
  await writeTree(`${root}/bad`, {
    ...skill('unknown', { readonly: true }),
    ...skill('typed', { destructiveHint: 'no' }),
  })
})

afterAll(() => cleanup?.())

describe('tool annotations in the manifest', () => {
  it('accepts the MCP hints, also under --compat ego-lite (the original ignores the key)', async () => {
    for (const extra of [[], ['--compat', 'ego-lite']]) {
      const run = await runBin(['validate', '--root', `${root}/ok`, '--json', ...extra])
      expect(run.code, extra.join(' ')).toBe(0)
      expect(JSON.parse(run.stdout)).toEqual({ ok: true, skills: 1, diagnostics: [] })
    }
  })

  it('rejects an unknown hint and a hint that is not a boolean, at the key, with tool-schema', async () => {
    const run = await runBin(['validate', '--root', `${root}/bad`, '--json'])
    expect(run.code).toBe(1)
    const found = JSON.parse(run.stdout).diagnostics.map((d: Record<string, unknown>) => [d.siteId, d.code, d.message])
    expect(found).toContainEqual([
      'unknown',
      'tool-schema',
      'browserTools.read: annotations has unknown key "readonly" (known: title, readOnlyHint, destructiveHint, ' +
        'idempotentHint, openWorldHint)',
    ])
    expect(found).toContainEqual([
      'typed',
      'tool-schema',
      'browserTools.read: annotations.destructiveHint must be a boolean',
    ])
  })
})
