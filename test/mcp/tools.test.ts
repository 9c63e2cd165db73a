import { describe, expect, it } from 'vitest'
import { type SiteTool, toolResult } from '../../src/mcp/tools'

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

  it('passes a matching result as structuredContent plus its JSON text; a non-object under result', () => {
    expect(toolResult(object, { price: 3, extra: true })).toEqual({
      content: [{ type: 'text', text: JSON.stringify({ price: 3, extra: true }, null, 2) }],
      structuredContent: { price: 3, extra: true },
    })
    expect(toolResult(text, 'hi').structuredContent).toEqual({ result: 'hi' })
    expect(toolResult(text, undefined).structuredContent).toEqual({ result: null })
  })

  it('turns a mismatch into an invalid-result tool error that names the path and what was expected', () => {
    const wrong = toolResult(object, { price: 'three' })
    expect(wrong.isError).toBe(true)
    expect(errorOf(wrong)).toEqual({
      code: 'invalid-result',
      text: "invalid-result: shop -> price: the result does not match the manifest's returns: data/price must be number (shop/tools/price.js)",
    })
    expect(errorOf(toolResult(object, {})).text).toContain("must have required property 'price'")
    expect(errorOf(toolResult(text, 5)).text).toContain('data/result must be string,null')
  })
})
