import { type ChildProcess, spawn } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { pathToFileURL } from 'node:url'

interface Message {
  id?: number
  method?: string
  result?: unknown
  error?: { message: string }
}

/** An LSP position: 0-based line and UTF-16 character. */
export interface Position {
  line: number
  character: number
}

/**
 * A real language server over stdio (TypeScript 7's `tsc --lsp --stdio`, what its editors run), driven
 * as an editor drives it: `initialize`, `didOpen`, then requests. `close()` shuts it down and resolves
 * with its exit code.
 */
export async function startLanguageServer(tsc: string, root: string) {
  const child: ChildProcess = spawn(process.execPath, [tsc, '--lsp', '--stdio'], {
    cwd: root,
    stdio: ['pipe', 'pipe', 'pipe'],
  })
  const waiting = new Map<number, (message: Message) => void>()
  let buffer = Buffer.alloc(0)
  let seq = 0
  const send = (message: object) => {
    const body = JSON.stringify({ jsonrpc: '2.0', ...message })
    child.stdin!.write(`Content-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`)
  }
  child.stdout!.on('data', (chunk: Buffer) => {
    buffer = Buffer.concat([buffer, chunk])
    for (;;) {
      const headerEnd = buffer.indexOf('\r\n\r\n')
      if (headerEnd < 0) return
      const length = Number(/Content-Length: (\d+)/i.exec(buffer.subarray(0, headerEnd).toString())?.[1])
      const start = headerEnd + 4
      if (buffer.length < start + length) return
      const message = JSON.parse(buffer.subarray(start, start + length).toString()) as Message
      buffer = buffer.subarray(start + length)
      // The server's own requests (configuration, progress) get an empty answer, as from an editor without settings.
      if (message.id !== undefined && message.method) send({ id: message.id, result: null })
      else if (message.id !== undefined) waiting.get(message.id)?.(message)
    }
  })
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)))
  function request<T>(method: string, params?: unknown, timeoutMs = 60_000): Promise<T> {
    const id = ++seq
    send(params === undefined ? { id, method } : { id, method, params })
    return new Promise<T>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`language server: no answer to ${method}`)), timeoutMs)
      waiting.set(id, (message) => {
        clearTimeout(timer)
        waiting.delete(id)
        if (message.error) reject(new Error(`${method}: ${message.error.message}`))
        else resolve(message.result as T)
      })
    })
  }
  const initialized = await request<{ serverInfo?: { name: string; version: string } }>('initialize', {
    processId: process.pid,
    rootUri: pathToFileURL(root).href,
    workspaceFolders: [{ uri: pathToFileURL(root).href, name: 'project' }],
    capabilities: {
      textDocument: {
        hover: { contentFormat: ['markdown', 'plaintext'] },
        completion: { completionItem: { documentationFormat: ['markdown', 'plaintext'] } },
        signatureHelp: { signatureInformation: { documentationFormat: ['markdown', 'plaintext'] } },
      },
    },
  })
  send({ method: 'initialized', params: {} })
  return {
    serverInfo: initialized.serverInfo,
    request,
    /** Opens a file as an editor does when it shows it. */
    open(file: string): void {
      const text = readFileSync(file, 'utf8')
      send({
        method: 'textDocument/didOpen',
        params: { textDocument: { uri: pathToFileURL(file).href, languageId: 'typescript', version: 1, text } },
      })
    },
    /** Replaces an open file's text, as an editor does on each edit (`version` must grow). */
    change(file: string, text: string, version: number): void {
      send({
        method: 'textDocument/didChange',
        params: { textDocument: { uri: pathToFileURL(file).href, version }, contentChanges: [{ text }] },
      })
    },
    /** `shutdown`, then `exit`. */
    async close(): Promise<number | null> {
      await request('shutdown')
      send({ method: 'exit' })
      return exited
    },
  }
}

/** Where `needle` is in a file's text (plus `delta` characters), as an LSP position. */
export function positionOf(text: string, needle: string, delta = 0): Position {
  const offset = text.indexOf(needle)
  if (offset < 0) throw new Error(`"${needle}" is not in the file`)
  const before = text.slice(0, offset + delta).split('\n')
  return { line: before.length - 1, character: before.at(-1)!.length }
}
