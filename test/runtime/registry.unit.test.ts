import { describe, expect, it, vi } from 'vitest'
import { createDomainTableData } from '../../runtime/match'
import { createSiteSkills } from '../../runtime/registry'
import { isSiteToolError } from '../../runtime/errors'
import type { SkillChunk, SkillMeta } from '../../runtime/skill-data'
import { caught } from '../helpers/caught'

const META: SkillMeta[] = [
  {
    id: 'shop',
    name: 'Shop',
    domains: ['shop.example.com', '*.shop.example.com'],
    notes: ['notes/a.md'],
    tools: {
      slow: {
        kind: 'node',
        description: 'Never ends.',
        args: {},
        returns: { type: 'string' },
        timeoutMs: 50,
        file: 'shop/tools/slow.js',
      },
      fails: {
        kind: 'node',
        description: 'Throws.',
        args: {},
        returns: { type: 'string' },
        file: 'shop/tools/fails.js',
      },
      echo: {
        kind: 'node',
        description: 'Echoes.',
        args: {
          text: { type: 'string', required: true, description: 'Text.' },
          mode: { type: 'string', required: false, description: 'Mode.', enum: ['a', 'b'] },
        },
        returns: { type: 'object', description: 'Args.' },
        file: 'shop/tools/echo.js',
      },
      'odd name!': {
        kind: 'browser',
        description: 'A browser tool.',
        args: { tags: { type: 'array', required: false, description: 'Tags.' } },
        returns: { type: 'array', description: 'Items.', items: { type: 'string' } },
        file: 'shop/browser-tools/odd.js',
      },
    },
  },
]

let loads = 0
function chunk(): SkillChunk {
  loads++
  return {
    notes: [{ siteId: 'shop', fileName: 'a.md', content: '# Shop' }],
    nodeTools: {
      slow: async () => () => new Promise(() => {}),
      fails: async () => () => {
        throw new TypeError('bad selector')
      },
      echo: async () => (ctx: unknown, args: unknown) => ({ ctx, args }),
    },
    browserTools: { 'odd name!': { source: 'async function(){return []}' } },
  }
}

const api = createSiteSkills(
  { skills: META, table: createDomainTableData(META.map((s) => s.domains)) },
  { shop: async () => chunk() },
)
describe('runtime registry', () => {
  it('runs a Node tool as fn(ctx, args) through the typed stub', async () => {
    const ctx = { page: 'p' }
    expect(await api.sites.shop!.echo!({ text: 'x' }, ctx)).toEqual({ ctx, args: { text: 'x' } })
    expect(await api.runTool('shop', 'echo', { text: 'y', mode: 'b' })).toMatchObject({
      args: { text: 'y', mode: 'b' },
    })
  })

  it('checks arguments before anything runs, naming site, tool and argument', async () => {
    const missing = await caught(api.runTool('shop', 'echo', {}))
    expect(isSiteToolError(missing, 'invalid-args') && missing.message).toBe(
      'shop -> echo: missing required argument "text"',
    )
    const extra = await caught(api.runTool('shop', 'echo', { text: 'x', txt: 'y' }))
    expect(isSiteToolError(extra, 'invalid-args') && extra.message).toBe('shop -> echo: unknown argument "txt"')
  })

  it('times out a Node tool at its timeoutMs', async () => {
    const started = Date.now()
    const error = await caught(api.runTool('shop', 'slow', {}))
    expect(isSiteToolError(error, 'timeout') && error.message).toBe(
      'shop -> slow: timed out after 50 ms (shop/tools/slow.js)',
    )
    expect(Date.now() - started).toBeLessThan(2000)
  })

  it('wraps a thrown error with site, tool, file and cause', async () => {
    const error = await caught(api.runTool('shop', 'fails', {}))
    expect(isSiteToolError(error, 'tool-threw')).toBe(true)
    expect(error).toMatchObject({
      siteId: 'shop',
      tool: 'fails',
      file: 'shop/tools/fails.js',
      message: 'shop -> fails: bad selector (shop/tools/fails.js)',
    })
    expect((error as Error).cause).toBeInstanceOf(TypeError)
  })

  it('names unknown skills and tools, and refuses a browser tool without a target', async () => {
    expect(await caught(api.runTool('nope', 'x'))).toMatchObject({ code: 'skill-not-found' })
    expect(((await caught(api.runTool('shop', 'nope'))) as Error).message).toBe(
      'shop -> nope: no such tool (known: slow, fails, echo, odd name!)',
    )
    expect(await caught(api.runBrowserTool('shop', 'echo', { text: 'x' }, 'localhost:1'))).toMatchObject({
      code: 'tool-kind',
    })
    expect(await caught(api.runTool('shop', 'odd name!', {}))).toMatchObject({ code: 'unavailable' })
  })

  it('loads a skill chunk once, lazily', async () => {
    const before = loads
    await api.loadNotes('shop')
    await api.browserToolSource('shop', 'odd name!')
    expect(loads - before).toBeLessThanOrEqual(1)
  })

  it('builds the learned context and model tool definitions for a URL', async () => {
    const context = await api.loadLearnedContext('https://a.shop.example.com/x')
    expect(context).toMatchObject({ exists: true, siteId: 'shop', siteName: 'Shop', domain: 'a.shop.example.com' })
    expect(context.tools.map((t) => t.example)).toEqual([
      // The functions of virtual:site-skills (ego-lite's `site` object does not exist here).
      'await runTool("shop", "slow", { ... }, ctx)',
      'await runTool("shop", "fails", { ... }, ctx)',
      'await runTool("shop", "echo", { ... }, ctx)',
      'await runBrowserTool("shop", "odd name!", { ... }, target)',
    ])
    const defs = context.toolDefinitions
    expect(Object.keys(defs.names)).toEqual(['shop__slow', 'shop__fails', 'shop__echo', 'shop__odd_name_'])
    expect(defs.mcp[2]).toEqual({
      name: 'shop__echo',
      description: 'Echoes.',
      inputSchema: {
        type: 'object',
        properties: {
          text: { type: 'string', description: 'Text.' },
          mode: { type: 'string', description: 'Mode.', enum: ['a', 'b'] },
          cursor: { type: 'string', description: 'pageInfo.cursor of the last page.' },
        },
        required: ['text'],
        additionalProperties: false,
      },
      outputSchema: { type: 'object', description: 'Args.' },
    })
    expect(defs.anthropic[2]!.input_schema).toEqual(defs.mcp[2]!.inputSchema)
    expect(defs.openai[2]).toEqual({
      type: 'function',
      function: {
        name: 'shop__echo',
        description: 'Echoes.',
        strict: true,
        parameters: {
          type: 'object',
          properties: {
            text: { type: 'string', description: 'Text.' },
            mode: { type: ['string', 'null'], description: 'Mode.', enum: ['a', 'b', null] },
            cursor: { type: ['string', 'null'], description: 'pageInfo.cursor of the last page.' },
          },
          required: ['text', 'mode', 'cursor'],
          additionalProperties: false,
        },
      },
    })
    // An array without items cannot be strict.
    expect(defs.openai[3]!.function.strict).toBe(false)
    expect(defs.mcp[3]!.outputSchema).toEqual({
      type: 'object',
      properties: { result: { type: 'array', description: 'Items.', items: { type: 'string' } } },
      required: ['result'],
    })
    expect(await api.dispatchToolCall('shop__echo', { text: 'z', mode: null })).toMatchObject({ args: { text: 'z' } })
    expect(await caught(api.dispatchToolCall('shop__missing', {}))).toMatchObject({ code: 'tool-not-found' })
  })

  it('dispatches OpenAI tool calls whose arguments are the JSON text the model sent', async () => {
    expect(await api.dispatchToolCall('shop__echo', '{"text":"z","mode":null}')).toMatchObject({ args: { text: 'z' } })
    // An empty text is a call without arguments (some models send it for tools that take none).
    expect(await caught(api.dispatchToolCall('shop__fails', ' '))).toMatchObject({ code: 'tool-threw' })
    const refusal = async (args: unknown) => {
      const error = await caught(api.dispatchToolCall('shop__echo', args as string))
      return isSiteToolError(error, 'invalid-args') && error.message
    }
    const texts = { '{"text":': 'text that is not JSON', '[1,2]': 'array', '"z"': 'string', '42': 'number' }
    for (const [text, got] of Object.entries(texts)) {
      expect(await refusal(text)).toBe(`shop -> echo: args must be an object (got ${got})`)
    }
    expect(await refusal(['x'])).toBe('shop -> echo: args must be an object (got array)')
  })

  it("copies a model call's arguments once, and a call of runTool once (issue 39)", async () => {
    const clone = vi.spyOn(globalThis, 'structuredClone')
    try {
      expect(await api.dispatchToolCall('shop__echo', { text: 'z', mode: null })).toMatchObject({ args: { text: 'z' } })
      expect(clone).toHaveBeenCalledTimes(1)
      clone.mockClear()
      expect(await api.runTool('shop', 'echo', { text: 'y' })).toMatchObject({ args: { text: 'y' } })
      expect(clone).toHaveBeenCalledTimes(1)
    } finally {
      clone.mockRestore()
    }
  })

  it('shows the value given for an enum, not its type', async () => {
    const message = async (mode: unknown) => {
      const error = await caught(api.runTool('shop', 'echo', { text: 'x', mode }))
      return isSiteToolError(error, 'invalid-args') && error.message
    }
    expect(await message('up')).toBe('shop -> echo: argument "mode" must be one of "a", "b" (got "up")')
    expect(await message(3)).toBe('shop -> echo: argument "mode" must be a string (got number)')
  })
})
