import { type ChildProcess, spawn } from 'node:child_process'

interface Response {
  request_seq: number
  success: boolean
  message?: string
  body?: unknown
}

/**
 * A real tsserver (the editor's side of TypeScript) over stdio, as VS Code runs it: requests in, framed
 * JSON responses out. `close()` ends it with the `exit` command and resolves with its exit code.
 */
export function startTsserver(tsserverJs: string, cwd: string, log: string) {
  const args = [tsserverJs, '--disableAutomaticTypingAcquisition', '--logVerbosity', 'verbose', '--logFile', log]
  const child: ChildProcess = spawn(process.execPath, args, { cwd, stdio: ['pipe', 'pipe', 'inherit'] })
  const waiting = new Map<number, (response: Response) => void>()
  let buffer = Buffer.alloc(0)
  let seq = 0
  child.stdout!.on('data', (chunk: Buffer) => {
    buffer = Buffer.concat([buffer, chunk])
    for (;;) {
      const headerEnd = buffer.indexOf('\r\n\r\n')
      if (headerEnd < 0) return
      const length = Number(/Content-Length: (\d+)/.exec(buffer.subarray(0, headerEnd).toString())?.[1])
      const start = headerEnd + 4
      if (buffer.length < start + length) return
      const message = JSON.parse(buffer.subarray(start, start + length).toString()) as Response & { type: string }
      buffer = buffer.subarray(start + length)
      if (message.type === 'response') waiting.get(message.request_seq)?.(message)
    }
  })
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)))
  const send = (command: string, args: object) => {
    seq += 1
    child.stdin!.write(`${JSON.stringify({ seq, type: 'request', command, arguments: args })}\n`)
    return seq
  }
  return {
    /** Sends a request and resolves with its response's body; rejects on failure or after `timeoutMs`. */
    request<T>(command: string, args: object, timeoutMs = 60_000): Promise<T> {
      const id = send(command, args)
      return new Promise<T>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`tsserver: no answer to ${command}`)), timeoutMs)
        waiting.set(id, (response) => {
          clearTimeout(timer)
          if (response.success) resolve(response.body as T)
          else reject(new Error(`tsserver ${command}: ${response.message}`))
        })
      })
    },
    /** Opens a file as an editor does (no answer comes to `open`). */
    open(file: string, projectRootPath: string): void {
      send('open', { file, projectRootPath })
    },
    close(): Promise<number | null> {
      send('exit', {})
      return exited
    },
  }
}
