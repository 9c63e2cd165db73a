import type { IncomingMessage } from 'node:http'

/** The largest request body read: a JSON-RPC message or batch is far smaller. */
const MAX_BODY = 4 * 1024 * 1024

/** A request body: its JSON, or why there is none (not JSON, or larger than `limit` bytes). */
export type BodyRead = { json: unknown } | { tooLarge: false } | { tooLarge: true; limit: number }

/**
 * Reads a request body of at most `limit` bytes. A larger one is refused as soon as it shows (its
 * Content-Length, else the byte that passes the limit): the rest is never read or kept.
 */
export function readBody(req: IncomingMessage, limit = MAX_BODY): Promise<BodyRead> {
  if (Number(req.headers['content-length']) > limit) return Promise.resolve({ tooLarge: true, limit })
  return new Promise((resolve) => {
    const chunks: Buffer[] = []
    let size = 0
    const stop = (read: BodyRead) => {
      req.off('data', onData).off('end', onEnd).off('error', onError)
      req.pause()
      resolve(read)
    }
    const onData = (chunk: Buffer) => {
      size += chunk.length
      if (size > limit) stop({ tooLarge: true, limit })
      else chunks.push(chunk)
    }
    const onEnd = () => {
      try {
        stop({ json: JSON.parse(Buffer.concat(chunks).toString('utf8')) })
      } catch {
        stop({ tooLarge: false })
      }
    }
    const onError = () => stop({ tooLarge: false })
    req.on('data', onData).on('end', onEnd).on('error', onError)
  })
}

/** How long a connection whose refused body went on past `discardRest`'s bytes is held before it is cut. */
const LINGER_MS = 2000

/**
 * The rest of a body refused as too large is read and dropped, up to `max` more bytes, so that the
 * client, still sending, gets the answer: a socket closed with unread bytes is reset, and a reset
 * makes the client's system drop the answer it had received. Past `max` reading stops (the client's
 * writes wait on the full window while it reads the answer) and the connection is cut `LINGER_MS`
 * later, or when the client closes it first.
 */
export function discardRest(req: IncomingMessage, max = MAX_BODY): void {
  let dropped = 0
  const onData = (chunk: Buffer) => {
    dropped += chunk.length
    if (dropped <= max) return
    req.off('data', onData)
    req.pause()
    const timer = setTimeout(() => req.socket.destroy(), LINGER_MS)
    timer.unref()
    req.socket.once('close', () => clearTimeout(timer))
  }
  req.on('data', onData)
  req.resume()
}

/** The ids of the requests in a JSON-RPC message or batch. */
export function requestIds(body: unknown): (string | number)[] {
  const messages = Array.isArray(body) ? body : [body]
  return messages.flatMap((m) => {
    const { id, method } = (m ?? {}) as { id?: unknown; method?: unknown }
    return typeof method === 'string' && (typeof id === 'string' || typeof id === 'number') ? [id] : []
  })
}
