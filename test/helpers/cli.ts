import { Writable } from 'node:stream'
import { main } from '../../src/cli/index'
import type { Exited } from './spawn'

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

/**
 * Runs the CLI in this process with captured output, for a test that watches this process's own state
 * (test/cli/one-shot.test.ts); every other test spawns the binary with `runBin` of ./spawn.
 */
export async function runCli(
  argv: string[],
  cwd: string,
  env: Record<string, string | undefined> = {},
): Promise<Exited> {
  const stdout = sink()
  const stderr = sink()
  const started = performance.now()
  const code = await main(argv, { stdout, stderr, cwd, env })
  return {
    code,
    stdout: stdout.text,
    stderr: stderr.text,
    timedOut: false,
    ms: Math.round(performance.now() - started),
  }
}
