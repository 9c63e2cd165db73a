import type { Message } from './channel'

type Ask = (message: Message) => Promise<Message>

/** Statuses whose response has no body (a Response with one throws). */
const NULL_BODY = new Set([101, 204, 205, 304])

/**
 * The child's `fetch`: each request goes to the server, which answers it as the tool's `ctx.fetch`
 * would in the server (from the fixture, or from the skill's own site) or fails it.
 */
export function proxiedFetch(ask: Ask, base: string | undefined): typeof fetch {
  return async (input, init) => {
    const request =
      input instanceof Request
        ? input
        : new Request(new URL(String(input instanceof URL ? input.href : input), base), init)
    const body = request.body ? Buffer.from(await request.arrayBuffer()).toString('base64') : undefined
    const answer = await ask({
      t: 'fetch',
      url: request.url,
      method: request.method,
      headers: [...request.headers],
      ...(body ? { body } : {}),
    })
    if (typeof answer.error === 'string') throw new TypeError(answer.error)
    const status = answer.status as number
    const bytes = NULL_BODY.has(status) ? null : Buffer.from(answer.body as string, 'base64')
    return new Response(bytes, {
      status,
      statusText: answer.statusText as string,
      headers: answer.headers as [string, string][],
    })
  }
}

type Handler = (params: unknown) => void

/** The child's `ctx.cdp`: `send`, `on`, `once` and `off` over the server's session to the tab. */
export function cdpProxy(ask: Ask, tell: (message: Message) => void, changed: () => void) {
  const handlers = new Map<string, Set<Handler>>()
  const client = {
    async send(method: string, params?: object): Promise<unknown> {
      const answer = await ask({ t: 'cdp', method, ...(params ? { params } : {}) })
      if (typeof answer.error === 'string') throw new Error(answer.error)
      return answer.result
    },
    on(event: string, handler: Handler) {
      let set = handlers.get(event)
      if (!set) {
        set = new Set()
        handlers.set(event, set)
        tell({ t: 'cdp-on', event })
        changed()
      }
      set.add(handler)
      return client
    },
    off(event: string, handler: Handler) {
      const set = handlers.get(event)
      set?.delete(handler)
      if (set && set.size === 0) {
        handlers.delete(event)
        tell({ t: 'cdp-off', event })
        changed()
      }
      return client
    },
    once(event: string, handler: Handler) {
      const once: Handler = (params) => {
        client.off(event, once)
        handler(params)
      }
      return client.on(event, once)
    },
  }
  return {
    client,
    listening: () => handlers.size > 0,
    emit(message: Message) {
      for (const handler of [...(handlers.get(message.event as string) ?? [])]) handler(message.params)
    },
  }
}
