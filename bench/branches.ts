import { execFile } from 'node:child_process'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { generateSkills } from './generate'
import { type Samples, rounds } from './stats'
import { type Figure, formatValue } from './table'

const run = promisify(execFile)
const TASK = join(import.meta.dirname, 'branches-task.ts')
const SKILLS = 1000

async function measure(variant: string, root: string): Promise<number> {
  const { stdout } = await run(process.execPath, ['--import', 'tsx', TASK, variant, root], {
    cwd: join(import.meta.dirname, '..'),
    maxBuffer: 1 << 20,
  })
  return (JSON.parse(stdout.trim().split('\n').at(-1)!) as { ms: number }).ms
}

/** One figure: `subject` against `baseline`, both measured in the same rounds. */
function figure(samples: Samples, name: string, subject: string, baseline: string, note: string): Figure {
  const ms = (v: number) => formatValue(v, 'ms')
  return {
    bench: 'branches',
    name,
    subject: { label: subject, unit: 'ms', value: samples.get(subject) },
    baseline: { label: baseline, unit: 'ms', value: samples.get(baseline) },
    ratio: samples.ratio(subject, baseline),
    ratioText: 'the time',
    notes: [`${note}; medians ${ms(samples.get(subject).median)} against ${ms(samples.get(baseline).median)}`],
  }
}

/**
 * Whether the compiler's three special paths pay for themselves, each against the path it
 * replaces, in the same run and each measurement in a fresh process (bench/branches-task.ts): the
 * Linux `lstat` fast path against `realpath` for every file, the syntax worker against checks on
 * the main thread, and bare browser tools 100 to an esbuild transform against one transform each.
 */
export async function runBranchesBench({ runs }: { runs: number }): Promise<Figure[]> {
  const root = await generateSkills(SKILLS)
  const bare = await generateSkills(SKILLS, `skills-${SKILLS}-bare`, false, true)
  const samples = await rounds(runs, {
    compile: () => measure('compile', root),
    'compile-portable-paths': () => measure('compile-portable-paths', root),
    'compile-no-worker': () => measure('compile-no-worker', root),
    'expressions-batched': () => measure('expressions-batched', bare),
    'expressions-alone': () => measure('expressions-alone', bare),
  })
  return [
    figure(
      samples,
      `cold compile, ${SKILLS.toLocaleString('en-US')} skills: lstat fast path (Linux) vs realpath for every file`,
      'compile',
      'compile-portable-paths',
      'the portable path is what macOS and Windows run (process.platform set to darwin in the child)',
    ),
    figure(
      samples,
      `cold compile, ${SKILLS.toLocaleString('en-US')} skills: V8 syntax checks on a worker vs all on the main thread`,
      'compile',
      'compile-no-worker',
      'without the worker: node:worker_threads Worker replaced by one that cannot be created',
    ),
    figure(
      samples,
      `${SKILLS.toLocaleString('en-US')} bare browser tools: 100 to an esbuild transform vs one transform each`,
      'expressions-batched',
      'expressions-alone',
      'compileExpressions with source maps and minified, 8 transforms in flight as the bundler sends them',
    ),
  ]
}
