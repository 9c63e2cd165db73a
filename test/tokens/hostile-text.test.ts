import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { makeTempDir, writeTree } from '../helpers/tmp'
import { stdioClient } from '../mcp/harness'
import { runBin } from '../helpers/spawn'

/**
 * Texts the tokenizer's byte-pair merging used to take the square of: one pre-token each, 400 KB
 * (before counting was done in pieces, `validate` with a tokenBudget ran for minutes on the first).
 */
const SIZE = 400_000
const fill = (unit: string) => unit.repeat(Math.ceil(SIZE / unit.length)).slice(0, SIZE - (SIZE % unit.length))
const HOSTILE = {
  word: fill('abcdefghij'),
  cjk: fill('漢字仮名交じり文'),
  accents: fill('e\u0301'),
  zwj: fill('👩‍👩‍👧‍👦'),
}

function skill(id: string, note: string, description = 'Reads the title of the page.') {
  const manifest = {
    id,
    name: id,
    domains: [`${id}.example.com`],
    tokenBudget: 1000,
    notes: ['notes/long.md'],
    browserTools: {
      read: {
        description,
        path: 'browser-tools/read.js',
        args: {},
        returns: { type: 'string', description: 'The title.' },
      },
    },
  }
  return {
    [`${id}/manifest.json`]: `${JSON.stringify(manifest, null, 2)}\n`,
    [`${id}/notes/long.md`]: note,
    [`${id}/browser-tools/read.js`]: 'async function () {\n  return document.title\n}\n',
  }
}

let root: string
let cleanup: () => Promise<void>
beforeAll(async () => {
  ;({ dir: root, cleanup } = await makeTempDir('hostile-text-'))
  for (const [name, text] of Object.entries(HOSTILE))
    await writeTree(join(root, name), skill(name, `# Long\n\n${text}\n`))
  await writeTree(join(root, 'described'), skill('described', '# Short\n', HOSTILE.word))
})
afterAll(() => cleanup?.())

describe('token counts of hostile texts', () => {
  it.each(Object.keys(HOSTILE))(
    'validate counts a 400 KB note of one %s run against tokenBudget and exits',
    async (name) => {
      const run = await runBin(['validate', '--root', join(root, name), '--json'], { limitMs: 30_000 })
      expect(run.timedOut).toBe(false)
      expect(run.code, run.stderr).toBe(0)
      const [found] = JSON.parse(run.stdout).diagnostics
      expect(found).toMatchObject({ code: 'token-budget', severity: 'warning', siteId: name })
      expect(found.data.tokens).toBeGreaterThan(40_000)
    },
  )

  it('context --tokens counts the note, and the MCP default mode lists a tool with a 400 KB description', async () => {
    const dir = join(root, 'described')
    const context = await runBin(['context', 'https://described.example.com/', '--tokens', '--json', '--root', dir], {
      limitMs: 30_000,
    })
    expect(context.timedOut).toBe(false)
    expect(context.code, context.stderr).toBe(0)
    const { tokens } = JSON.parse(context.stdout)
    expect(tokens.skills[0].tools[0].tokens).toBeGreaterThan(70_000)

    // The default mode counts the `all` list to choose: far over its budget, it serves `search`.
    const mcp = await stdioClient(['--root', dir])
    try {
      const { tools } = await mcp.client.listTools()
      const names = tools.map((t) => t.name)
      expect(names).toContain('site_skills_find_tools')
      expect(names.some((n) => n.startsWith('described'))).toBe(false)
    } finally {
      await mcp.client.close()
    }
  })
})
