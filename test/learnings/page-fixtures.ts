import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { type CdpClient, listen } from '../../runtime/cdp'

/** One example of a browser tool as the manifest declares it. */
interface ToolExample {
  name?: string
  args: Record<string, unknown>
  url: string
  fixture: string
  expect?: unknown
}

interface PausedRequest {
  requestId: string
  request: { url: string }
}

/**
 * Shows a saved page in the tab under its real address: the navigation to `url` is answered with
 * the fixture file by request interception and every other request fails, so nothing reaches the
 * network. Resolves once the page has loaded.
 */
export async function showFixture(client: CdpClient, url: string, file: string): Promise<void> {
  const body = (await readFile(file)).toString('base64')
  await client.send('Fetch.enable', { patterns: [{ urlPattern: '*' }] })
  listen(client, 'Fetch.requestPaused', (event: PausedRequest) => {
    const answer =
      event.request.url === url
        ? client.send('Fetch.fulfillRequest', {
            requestId: event.requestId,
            responseCode: 200,
            responseHeaders: [{ name: 'Content-Type', value: 'text/html; charset=utf-8' }],
            body,
          })
        : client.send('Fetch.failRequest', { requestId: event.requestId, errorReason: 'BlockedByClient' })
    answer.catch(() => undefined)
  })
  const loaded = new Promise((resolve) => client.once('Page.loadEventFired', resolve))
  await client.send('Page.navigate', { url })
  await loaded
}

/**
 * Where `actual` differs from the partial value `expected` (objects: only the keys given;
 * arrays: by position, only the items given), as JSON paths with both values; empty when it matches.
 */
export function mismatches(actual: unknown, expected: unknown, path = '$'): string[] {
  if (Array.isArray(expected)) {
    if (!Array.isArray(actual)) return [`${path}: expected an array, got ${JSON.stringify(actual)}`]
    return expected.flatMap((item, i) => mismatches(actual[i], item, `${path}[${i}]`))
  }
  if (expected !== null && typeof expected === 'object') {
    if (actual === null || typeof actual !== 'object')
      return [`${path}: expected an object, got ${JSON.stringify(actual)}`]
    const record = actual as Record<string, unknown>
    return Object.entries(expected).flatMap(([key, value]) => mismatches(record[key], value, `${path}.${key}`))
  }
  return Object.is(actual, expected)
    ? []
    : [`${path}: expected ${JSON.stringify(expected)}, got ${JSON.stringify(actual)}`]
}

/** A value schema of the manifest, as far as the result check needs it. */
export interface ValueSchema {
  type: string
  properties?: Record<string, ValueSchema>
  items?: ValueSchema
  enum?: unknown[]
}

const TYPE_CHECKS: Record<string, (value: unknown) => boolean> = {
  string: (v) => typeof v === 'string',
  number: (v) => typeof v === 'number',
  integer: (v) => Number.isInteger(v),
  boolean: (v) => typeof v === 'boolean',
  array: (v) => Array.isArray(v),
  object: (v) => v !== null && typeof v === 'object' && !Array.isArray(v),
}

/**
 * Where `value` breaks the tool's `returns` schema: wrong types, values outside an enum, and keys
 * the schema does not declare. Null stands for "the page does not show it" and is accepted.
 */
export function contractBreaks(value: unknown, schema: ValueSchema, path = '$'): string[] {
  if (value === null || value === undefined) return []
  if (!TYPE_CHECKS[schema.type]?.(value)) return [`${path}: expected ${schema.type}, got ${JSON.stringify(value)}`]
  if (schema.enum && !schema.enum.includes(value)) return [`${path}: ${JSON.stringify(value)} is not in the enum`]
  if (Array.isArray(value) && schema.items) {
    const items = schema.items
    return value.flatMap((item, i) => contractBreaks(item, items, `${path}[${i}]`))
  }
  if (schema.type !== 'object' || !schema.properties) return []
  const properties = schema.properties
  return Object.entries(value as Record<string, unknown>).flatMap(([key, item]) => {
    const inner = properties[key]
    return inner ? contractBreaks(item, inner, `${path}.${key}`) : [`${path}.${key}: not declared in returns`]
  })
}

/** The manifest of a skill in `root`. */
export async function readManifest(root: string, siteId: string): Promise<Manifest> {
  return JSON.parse(await readFile(join(root, siteId, 'manifest.json'), 'utf8')) as Manifest
}

/** The parts of a manifest the example run reads. */
export interface Manifest {
  domains: string[]
  browserTools: Record<string, { path: string; returns: ValueSchema; examples?: ToolExample[] }>
  nodeTools?: Record<string, { examples?: { url?: string; fixture?: string }[] }>
}
