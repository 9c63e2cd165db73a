import type { Readable, Writable } from 'node:stream'

/** One message between the server and a sandbox's child: `t` says what it is. */
export interface Message {
  t: string
  [key: string]: unknown
}

/** A line as a message, or undefined when it is none (the other side writes only messages). */
function parse(line: string): Message | undefined {
  try {
    const value = JSON.parse(line) as unknown
    return value && typeof value === 'object' && typeof (value as Message).t === 'string'
      ? (value as Message)
      : undefined
  } catch {
    return undefined
  }
}

/**
 * Reads newline-delimited JSON messages (JSON text never holds a raw newline). A message longer
 * than `max` bytes is never gathered: `onTooLarge` is called and reading stops.
 */
export function readMessages(
  input: Readable,
  max: number,
  onMessage: (message: Message) => void,
  onTooLarge: () => void,
): void {
  let pending: Buffer[] = []
  let size = 0
  const tooLarge = () => {
    input.removeAllListeners('data')
    input.destroy()
    onTooLarge()
  }
  input.on('data', (chunk: Buffer) => {
    let start = 0
    for (let end = chunk.indexOf(10); end !== -1; end = chunk.indexOf(10, start)) {
      if (size + end - start > max) return tooLarge()
      const line = Buffer.concat([...pending, chunk.subarray(start, end)]).toString('utf8')
      pending = []
      size = 0
      start = end + 1
      const message = parse(line)
      if (message) onMessage(message)
    }
    size += chunk.length - start
    if (size > max) return tooLarge()
    if (start < chunk.length) pending.push(chunk.subarray(start))
  })
}

/** Writes one message. */
export function writeMessage(output: Writable, message: Message): void {
  output.write(`${JSON.stringify(message)}\n`)
}
