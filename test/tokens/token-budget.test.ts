import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildApp } from '../helpers/bundlers'
import { makeTempDir, writeTree } from '../helpers/tmp'
import { stdioClient } from '../mcp/harness'
import { runBin } from '../helpers/spawn'

let root: string
let cleanup: () => Promise<void>

/** A skill whose one browser tool's listed definition is well over 10 tokens. */
function skill(id: string, extra: { skill?: unknown; tool?: unknown }) {
  const manifest = {
    id,
    name: id,
    domains: [`${id}.example.com`],
    ...(extra.skill === undefined ? {} : { tokenBudget: extra.skill }),
    notes: ['notes/map.md'],
    browserTools: {
      read: {
        description: 'Reads the title of the page.',
        path: 'browser-tools/read.js',
        args: {},
        returns: { type: 'string', description: 'The title.' },
        ...(extra.tool === undefined ? {} : { tokenBudget: extra.tool }),
      },
    },
  }
  return {
    [`${id}/manifest.json`]: `${JSON.stringify(manifest, null, 2)}\n`,
    [`${id}/notes/map.md`]: '# Map\n\nThe title is in document.title.\n',
    [`${id}/browser-tools/read.js`]: 'async function () {\n  return document.title\n}\n',
  }
}

/** Line and column (1-based) of the first `"key":` after `after` in a manifest's text. */
function keyAt(text: string, key: string, after = ''): { line: number; column: number } {
  const index = text.indexOf(`"${key}":`, after ? text.indexOf(after) : 0)
  const before = text.slice(0, index).split('\n')
  return { line: before.length, column: before.at(-1)!.length + 1 }
}

const diagnostics = async (dir: string, extra: string[] = []) => {
  const run = await runBin(['validate', '--root', dir, '--json', ...extra], { limitMs: 20_000 })
  return { code: run.code, ...(JSON.parse(run.stdout) as { diagnostics: Record<string, unknown>[] }) }
}

/** The tokens of the tool as `context --tokens` counts them. */
async function toolTokens(dir: string, id: string): Promise<number> {
  const url = `https://${id}.example.com/`
  const run = await runBin(['context', url, '--tokens', '--json', '--root', dir], { limitMs: 20_000 })
  return JSON.parse(run.stdout).tokens.skills[0].tools[0].tokens
}

beforeAll(async () => {
  ;({ dir: root, cleanup } = await makeTempDir('token-budget-'))
  await writeTree(join(root, 'warn'), skill('warned', { tool: 10 }))
  await writeTree(join(root, 'fail'), skill('failed', { tool: { max: 10, fail: true } }))
  await writeTree(join(root, 'whole'), skill('whole', { skill: { max: 20, fail: true } }))
  await writeTree(join(root, 'within'), skill('within', { tool: 5000, skill: 5000 }))
  await writeTree(join(root, 'bad'), {
    ...skill('badtool', { tool: -1 }),
    ...skill('badskill', { skill: { max: 10, fail: 'yes' } }),
  })
  await writeTree(join(root, 'plain'), skill('plain', {}))
})

afterAll(() => cleanup?.())

describe('tokenBudget in the manifest', () => {
  it('warns at the tool entry when its definition is over the budget, with the counted figure', async () => {
    const { code, diagnostics: found } = await diagnostics(join(root, 'warn'))
    expect(code).toBe(0)
    const tokens = await toolTokens(join(root, 'warn'), 'warned')
    const text = await readFile(join(root, 'warn/warned/manifest.json'), 'utf8')
    expect(found).toEqual([
      {
        code: 'token-budget',
        severity: 'warning',
        siteId: 'warned',
        file: 'warned/manifest.json',
        ...keyAt(text, 'read'),
        message: `browserTools.read: ${tokens} tokens (o200k_base), over the budget of 10 (tokenBudget)`,
        hint: expect.stringContaining('site-skills context URL --tokens'),
        root: expect.stringMatching(/warn$/),
        data: { subject: 'browserTools.read', tokens, budget: 10, option: false },
      },
    ])
    expect(tokens).toBeGreaterThan(10)
  })

  it('fails with fail: true, for a tool and for the whole skill (at its tokenBudget key)', async () => {
    const failed = await diagnostics(join(root, 'fail'))
    expect(failed.code).toBe(1)
    expect(failed.diagnostics).toMatchObject([{ code: 'token-budget', severity: 'error', siteId: 'failed' }])
    const whole = await diagnostics(join(root, 'whole'))
    expect(whole.code).toBe(1)
    const text = await readFile(join(root, 'whole/whole/manifest.json'), 'utf8')
    expect(whole.diagnostics).toMatchObject([
      {
        code: 'token-budget',
        severity: 'error',
        ...keyAt(text, 'tokenBudget'),
        message: expect.stringMatching(
          /^the skill \(tool definitions and notes\): \d+ tokens \(o200k_base\), over the budget of 20/,
        ),
      },
    ])
  })

  it('says nothing within the budget, and rejects a budget that is not a positive integer or { max, fail? }', async () => {
    expect(await diagnostics(join(root, 'within'))).toMatchObject({ code: 0, diagnostics: [] })
    const bad = await diagnostics(join(root, 'bad'))
    expect(bad.code).toBe(1)
    expect(bad.diagnostics.map((d) => [d.siteId, d.code, d.message])).toEqual([
      [
        'badskill',
        'token-budget-invalid',
        'manifest: tokenBudget must be a positive integer or { "max": N, "fail"?: boolean }',
      ],
      [
        'badtool',
        'token-budget-invalid',
        'browserTools.read.tokenBudget: tokenBudget must be a positive integer or { "max": N, "fail"?: boolean }',
      ],
    ])
  })
})

describe('the tokenBudget plugin option (a real Vite build)', () => {
  it('fails the build with fail: true, naming the manifest entry as file:line:col', async () => {
    const { dir: outDir, cleanup: done } = await makeTempDir('token-budget-build-')
    try {
      const options = { roots: join(root, 'plain'), dts: false as const, tokenBudget: { tool: 10, fail: true } }
      const error = await buildApp('vite', { outDir, options }).catch((e: Error) => e)
      expect(error).toBeInstanceOf(Error)
      expect(String((error as Error).message)).toMatch(/plain\/manifest\.json:\d+:\d+/)
      expect(String((error as Error).message)).toMatch(
        /browserTools\.read: \d+ tokens \(o200k_base\), over the budget of 10 \(the tokenBudget option\)/,
      )
      // Within the option's budget the same build passes.
      await buildApp('vite', { outDir, options: { ...options, tokenBudget: { tool: 5000, skill: 5000, fail: true } } })
    } finally {
      await done()
    }
  })
})

describe('tokenBudget in site-skills mcp (the real binary over stdio)', () => {
  it('does not serve a skill over a fail: true budget, says why on stderr, and serves the one only warned', async () => {
    const mcp = await stdioClient(['--root', join(root, 'fail'), '--root', join(root, 'warn'), '--tools', 'all'])
    try {
      const names = (await mcp.client.listTools()).tools.map((t) => t.name)
      expect(names).toContain('warned__read')
      expect(names).not.toContain('failed__read')
      expect(mcp.stderr()).toMatch(/invalid skill: .*failed\/manifest\.json:\d+:\d+.*token-budget/)
    } finally {
      await mcp.client.close()
    }
  })
})
