/**
 * Writes `playground/site-skills.d.ts` from the shipped learnings, as `npm start` does through the
 * plugin, so that `tsc --noEmit` type-checks the playground agent on a fresh clone (the file is
 * generated, so it is not committed). Runs the CLI from source: no `dist/` is needed.
 */
import { join } from 'node:path'
import { main } from '../src/cli/index'

const repo = join(import.meta.dirname, '..')
const io = { stdout: process.stdout, stderr: process.stderr, cwd: repo, env: process.env }
const argv = ['types', '--root', 'learnings', '--out', 'playground/site-skills.d.ts']
process.exitCode = await main(argv, io)
