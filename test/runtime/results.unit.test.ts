import { afterEach, describe, expect, it, vi } from 'vitest'
import { isSiteToolError } from '../../runtime/errors'
import { createToolDefinitions } from '../../runtime/definitions'
import { createDomainTableData } from '../../runtime/match'
import { createSiteSkills, type SiteSkillsOptions } from '../../runtime/registry'
import type { SkillMeta, ValueSchema } from '../../runtime/skill-data'

const LIST: ValueSchema = {
  type: 'array',
  description: 'Rows.',
  items: { type: 'object', properties: { price: { type: 'number', required: true } } },
}

/** A registry of two Node tools that return whatever the call passes as `value`. */
function apiFor(options: SiteSkillsOptions, returns: ValueSchema = LIST) {
  const tool = { kind: 'node' as const, description: 'Echo.', args: {}, returns, file: 'site/tools/echo.js' }
  const meta: SkillMeta = { id: 'site', name: 'Site', domains: ['example.com'], notes: [], tools: { a: tool, b: tool } }
  const echo = async () => (ctx: { value: unknown }) => ctx.value
  const chunk = { notes: [], browserTools: {}, nodeTools: { a: echo, b: echo } }
  const data = { skills: [meta], table: createDomainTableData([meta.domains]) }
  return createSiteSkills(data, { site: async () => chunk }, options)
}

let warn: { mockRestore: () => void; mock: { calls: unknown[][] } }
afterEach(() => warn?.mockRestore())
const lines = () => warn.mock.calls.map((c) => String(c[0]))

describe('the registry checks results (validateReturns)', () => {
  it("'warn' logs once per tool and path, whatever the array index or the kind of mismatch", async () => {
    warn = vi.spyOn(console, 'warn').mockImplementation(() => {})
    const api = apiFor({})
    await api.runTool('site', 'a', {}, { value: [{ price: 'x' }] })
    await api.runTool('site', 'a', {}, { value: [{ price: 1 }, { price: 'y' }] })
    await api.runTool('site', 'b', {}, { value: [{ price: 'z' }] })
    expect(await api.runTool('site', 'a', {}, { value: [{}] })).toEqual([{}])
    expect(lines()).toEqual([
      '[site-skills] site -> a: result does not match the manifest\'s returns: result[0].price must be a number (got "x"). Hint: if the site changed, fix the tool; else fix its "returns" (site/tools/echo.js)',
      '[site-skills] site -> b: result does not match the manifest\'s returns: result[0].price must be a number (got "z"). Hint: if the site changed, fix the tool; else fix its "returns" (site/tools/echo.js)',
    ])
  })

  it("'throw': a result whose getter throws is a mismatch too, not a crash", async () => {
    const api = apiFor({ validateReturns: 'throw' })
    const hostile = [
      {
        get price() {
          throw new Error('no price')
        },
      },
    ]
    const error = await api.runTool('site', 'a', {}, { value: hostile }).catch((e: unknown) => e)
    expect(isSiteToolError(error, 'invalid-result') && error.message).toContain(
      'result must be a readable value (got "no price")',
    )
    expect(await api.runTool('site', 'a', {}, { value: [{ price: 2 }] })).toEqual([{ price: 2 }])
  })

  it('a tool without a usable returns (the no-build API tolerates one) is not checked', async () => {
    warn = vi.spyOn(console, 'warn').mockImplementation(() => {})
    const api = apiFor({ validateReturns: 'throw' }, {} as ValueSchema)
    expect(await api.runTool('site', 'a', {}, { value: 'anything' })).toBe('anything')
    expect(lines()).toEqual([])
  })
})

describe('tool definitions carry nullable and maps', () => {
  it('a nullable argument admits null; a map is additionalProperties and keeps OpenAI strict off', () => {
    const args: Record<string, ValueSchema> = {
      after: { type: 'string', required: true, nullable: true, description: 'Cursor or null.' },
      headers: { type: 'object', required: false, description: 'By name.', additionalProperties: { type: 'string' } },
    }
    const tool = { kind: 'node' as const, description: 'Page.', args, returns: LIST, file: 'site/tools/page.js' }
    const [def] = createToolDefinitions([{ siteId: 'site', tool: 'page', name: 'site__page', meta: tool }]).openai
    expect(def!.function.strict).toBe(false)
    expect(def!.function.parameters).toMatchObject({
      properties: {
        after: { type: ['string', 'null'] },
        headers: { type: 'object', additionalProperties: { type: 'string' } },
      },
      required: ['after'],
    })
  })
})
