import { readFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import type { Tool } from '@modelcontextprotocol/sdk/types.js'
import { countTokens } from 'gpt-tokenizer/encoding/o200k_base'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { generateSkills } from '../../bench/generate'
import { REPO_ROOT } from '../helpers/tmp'
import { readmeSays } from '../package/readme'
import { createWorld, stdioClient, worldArgs, type World } from './harness'
import { runBin } from '../helpers/spawn'

let world: World
type Client = Awaited<ReturnType<typeof stdioClient>>
const open: Client[] = []

/** gpt-tokenizer's own count of a text, as plain text. */
const tokens = (text: string) => countTokens(text, { disallowedSpecial: new Set() })
/** What a model is sent for a tool: its definition without the icons. */
const shown = ({ icons: _, ...def }: Tool) => JSON.stringify(def)

async function start(args: string[]): Promise<Client> {
  const client = await stdioClient(args)
  open.push(client)
  return client
}

/** Every page of tools/list. */
async function allTools(mcp: Client): Promise<Tool[]> {
  const tools: Tool[] = []
  let cursor: string | undefined
  do {
    const page = await mcp.client.listTools(cursor ? { cursor } : {})
    tools.push(...page.tools)
    cursor = page.nextCursor
  } while (cursor)
  return tools
}

const listTokens = (tools: readonly Tool[]) => tools.reduce((n, t) => n + tokens(shown(t)), 0)

beforeAll(async () => {
  world = await createWorld()
})

afterAll(async () => {
  await Promise.all(open.map((mcp) => mcp.client.close()))
  await world?.close()
})

describe('token counts (gpt-tokenizer, o200k_base)', () => {
  it('context --tokens --json counts each listed tool definition and note as the tokenizer counts the same text', async () => {
    const run = await runBin(['context', world.url('alpha.test'), '--tokens', '--json', '--root', world.root], {
      limitMs: 20_000,
    })
    expect(run.code, run.stderr).toBe(0)
    const { tokens: counted, knowledge } = JSON.parse(run.stdout)
    const listed = await allTools(await start(['--tools', 'all', ...worldArgs(world)]))
    // gamma matches alpha.test too (context serves every skill, and takes no --deny: only mcp does).
    const [alpha, gamma] = counted.skills
    expect(counted.encoding).toBe('o200k_base')
    expect([alpha.siteId, gamma.siteId]).toEqual(['alpha', 'gamma'])
    expect(gamma.tools.map((t: { name: string }) => t.name)).toEqual(['gamma__secret'])
    expect(alpha.tools.length).toBe(5)
    for (const tool of alpha.tools) {
      const def = listed.find((t) => t.name === tool.name)!
      expect(tool.tokens, tool.name).toBe(tokens(shown(def)))
    }
    const note = await readFile(join(world.root, 'alpha/notes/guide.md'), 'utf8')
    expect(knowledge[0].content).toBe(note)
    expect(alpha.notes).toEqual([{ file: 'notes/guide.md', tokens: tokens(note) }])
    const toolSum = [...alpha.tools, ...gamma.tools].reduce((n: number, t: { tokens: number }) => n + t.tokens, 0)
    expect(alpha.total + gamma.total).toBe(toolSum + tokens(note))
    expect(counted).toMatchObject({ tools: toolSum, notes: tokens(note), total: toolSum + tokens(note) })

    const human = await runBin(['context', world.url('alpha.test'), '--tokens', '--root', world.root], {
      limitMs: 20_000,
    })
    expect(human.code).toBe(0)
    expect(human.stdout).toContain(`tokens of ${world.url('alpha.test')} (o200k_base)`)
    expect(human.stdout).toMatch(new RegExp(`note notes/guide\\.md\\s+${tokens(note)}\\n`))
    expect(human.stdout).toMatch(new RegExp(`total\\s+${(toolSum + tokens(note)).toLocaleString('en-US')}\\n`))
  })

  it('counts a special token spelled in a note as text', async () => {
    const dir = join(world.root, 'alpha/notes/guide.md')
    const before = await readFile(dir, 'utf8')
    await writeFile(dir, `${before}Never type <|endoftext|> here.\n`)
    try {
      const run = await runBin(['context', world.url('alpha.test'), '--tokens', '--json', '--root', world.root], {
        limitMs: 20_000,
      })
      expect(run.code, run.stderr).toBe(0)
      const note = await readFile(dir, 'utf8')
      expect(JSON.parse(run.stdout).tokens.notes).toBe(tokens(note))
    } finally {
      await writeFile(dir, before)
    }
  })

  it('keeps the default list within its budget with 1,000 skills (search), and lists all when they are few', async () => {
    const big = await generateSkills(1000)
    const byDefault = await start(['--root', big])
    const defaultList = await allTools(byDefault)
    expect(defaultList.map((t) => t.name)).toEqual([
      'site_skills_active_tab',
      'site_skills_tabs',
      'site_skills_switch_tab',
      'site_skills_navigate',
      'site_skills_find_tools',
      'site_skills_call',
    ])
    expect(byDefault.stderr()).toMatch(/serving 4000 site tools as --tools search/)
    const everything = await allTools(await start(['--tools', 'all', '--root', big]))
    expect(everything.length).toBe(4 + 4000)
    const shipped = await allTools(await start(['--tools', 'all', '--root', join(REPO_ROOT, 'learnings')]))
    const shippedDefault = await start(['--root', join(REPO_ROOT, 'learnings')])
    const shippedList = await allTools(shippedDefault)
    const figures = {
      'shipped all': listTokens(shipped),
      'shipped default': listTokens(shippedList),
      '1,000 skills all': listTokens(everything),
      '1,000 skills default (search)': listTokens(defaultList),
    }
    console.log(`tokens of the listed tools: ${JSON.stringify(figures)}`)
    expect(listTokens(defaultList)).toBeLessThan(4000)
    expect(listTokens(everything)).toBeGreaterThan(100 * 4000)
    const expectedMode = listTokens(shipped) > 4000 ? 'search' : 'all'
    expect(shippedDefault.stderr()).toContain(`as --tools ${expectedMode}`)
    // The README's table says the same.
    const fmt = (n: number) => n.toLocaleString('en-US')
    const siteTools = shipped.length - 4
    expect(
      readmeSays(
        `| the six shipped skills (${siteTools} site tools) | ${fmt(listTokens(shipped))} tokens | ${fmt(listTokens(shippedList))} tokens |`,
      ),
    ).toBe(true)
    expect(
      readmeSays(
        `| 1,000 generated skills (4,000 site tools) | ${fmt(listTokens(everything))} tokens | ${fmt(listTokens(defaultList))} tokens |`,
      ),
    ).toBe(true)
  }, 240_000)

  it("gives each shipped skill's figures in the README as context --tokens counts them", async () => {
    const learnings = join(REPO_ROOT, 'learnings')
    const urls: Record<string, string> = {
      'demo-shop': 'http://127.0.0.1/',
      // Pages of the scoped skills (urls) where most of their tools apply: a repository, a spreadsheet.
      github: 'https://github.com/vitejs/vite',
      'google-workspace': 'https://docs.google.com/spreadsheets/d/1/edit',
      'hacker-news': 'https://news.ycombinator.com/',
      mdn: 'https://developer.mozilla.org/',
      wikipedia: 'https://en.wikipedia.org/',
    }
    const fmt = (n: number) => n.toLocaleString('en-US')
    for (const [id, url] of Object.entries(urls)) {
      const run = await runBin(['context', url, '--tokens', '--json', '--root', learnings], { limitMs: 20_000 })
      expect(run.code, run.stderr).toBe(0)
      const skill = JSON.parse(run.stdout).tokens.skills.find((s: { siteId: string }) => s.siteId === id)
      const tools = skill.tools.reduce((n: number, t: { tokens: number }) => n + t.tokens, 0)
      const row = `| ${id} | ${skill.tools.length} | ${fmt(tools)} | ${fmt(skill.total - tools)} | ${fmt(skill.total)} |`
      expect(readmeSays(row), row).toBe(true)
    }
  })
})
