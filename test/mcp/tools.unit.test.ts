import { describe, expect, it } from 'vitest'
import { type CallValue, type SiteTool, createResultChecker, toolResult } from '../../src/mcp/tool-results'

/** A Node tool as the server lists it: `returns` of `type`, its published output schema `outputSchema`. */
function siteTool(returns: SiteTool['meta']['returns'], outputSchema: Record<string, unknown>): SiteTool {
  return {
    def: {
      name: 'shop__price',
      inputSchema: { type: 'object' },
      outputSchema: outputSchema as SiteTool['def']['outputSchema'],
    },
    ref: { siteId: 'shop', tool: 'price' },
    meta: { kind: 'node', description: 'The price.', args: {}, returns, file: 'shop/tools/price.js' },
  }
}

/** The result as the server checks it: with one catalog's checker. */
const checker = createResultChecker()
const resultOf = (tool: SiteTool, value: CallValue) => toolResult(tool, value, checker)

/** A result within its budget, as a call returns it. */
const whole = (value: unknown) => ({ value, paged: false })

const errorOf = (result: ReturnType<typeof toolResult>) => ({
  code: (result._meta?.['site-skills/error'] as { code?: string } | undefined)?.code,
  text: (result.content[0] as { text: string }).text,
})

describe('a tool result checked against the published output schema (the check the SDK client makes)', () => {
  const object = siteTool(
    { type: 'object', description: 'Price.', properties: { price: { type: 'number', required: true } } },
    { type: 'object', properties: { price: { type: 'number' } }, required: ['price'] },
  )
  const text = siteTool(
    { type: 'string', description: 'Text.' },
    {
      type: 'object',
      properties: { result: { type: ['string', 'null'] } },
      required: ['result'],
    },
  )

  it('passes a matching result as structuredContent plus its compact text; a non-object under result', () => {
    expect(resultOf(object, whole({ price: 3, extra: true }))).toEqual({
      content: [{ type: 'text', text: 'price:3\nextra:true' }],
      structuredContent: { price: 3, extra: true },
    })
    expect(resultOf(text, whole('hi'))).toEqual({
      content: [{ type: 'text', text: 'hi' }],
      structuredContent: { result: 'hi' },
    })
    expect(resultOf(text, whole(undefined)).structuredContent).toEqual({ result: null })
  })

  it('passes a page as it is: pageInfo and the members, or pageInfo and result', () => {
    const page = { pageInfo: { total: 9, offset: 0, count: 1, cursor: 'abc' }, result: 'one' }
    expect(resultOf(text, { value: page, paged: true })).toEqual({
      content: [{ type: 'text', text: 'pageInfo:\n total:9\n offset:0\n count:1\n cursor:abc\nresult:one' }],
      structuredContent: page,
    })
  })

  it('wraps the result of a tool without returns, or whose object may be absent, under result', () => {
    const none = siteTool(undefined as never, { type: 'object', properties: { result: {} }, required: ['result'] })
    expect(resultOf(none, whole({ a: 1 })).structuredContent).toEqual({ result: { a: 1 } })
    expect(resultOf(none, whole([1])).structuredContent).toEqual({ result: [1] })
    const maybe = siteTool(
      { type: 'object', description: 'Maybe.', required: false },
      { type: 'object', properties: { result: { type: ['object', 'null'] } }, required: ['result'] },
    )
    expect(resultOf(maybe, whole(null))).toMatchObject({ structuredContent: { result: null } })
    expect(resultOf(maybe, whole(null)).isError).toBeUndefined()
  })

  it('turns a mismatch into an invalid-result tool error that names the path and what was expected', () => {
    const wrong = resultOf(object, whole({ price: 'three' }))
    expect(wrong.isError).toBe(true)
    expect(errorOf(wrong)).toEqual({
      code: 'invalid-result',
      text: "invalid-result: shop -> price: the result does not match the manifest's returns: data/price must be number (shop/tools/price.js)",
    })
    expect(errorOf(resultOf(object, whole({}))).text).toContain("must have required property 'price'")
    expect(errorOf(resultOf(text, whole(5))).text).toContain('data/result must be string,null')
  })
})
