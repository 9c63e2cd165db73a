import { Writable } from 'node:stream'
import { main } from '../../src/cli/index'

export interface CliRun {
  code: number
  stdout: string
  stderr: string
}

function sink(): Writable & { text: string } {
  const stream = new Writable({
    write(chunk, _encoding, done) {
      stream.text += String(chunk)
      done()
    },
  }) as Writable & { text: string }
  stream.text = ''
  return stream
}

/** Runs the CLI in-process with captured output. */
export async function runCli(
  argv: string[],
  cwd: string,
  env: Record<string, string | undefined> = {},
): Promise<CliRun> {
  const stdout = sink()
  const stderr = sink()
  const code = await main(argv, { stdout, stderr, cwd, env })
  return { code, stdout: stdout.text, stderr: stderr.text }
}
