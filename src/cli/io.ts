export interface CliIO {
  stdout: NodeJS.WritableStream & { isTTY?: boolean }
  stderr: NodeJS.WritableStream & { isTTY?: boolean }
  cwd: string
  env: Record<string, string | undefined>
}

export { UsageError } from './options'

export function writeLine(stream: NodeJS.WritableStream, text = ''): void {
  stream.write(`${text}\n`)
}
