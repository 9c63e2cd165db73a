/**
 * `--only hostile`: the work others control, on inputs built to make it super-linear, against the
 * same work on ordinary input of the same size, in the same run. Each subject must finish well
 * under a second (SPEC 10; issue 35): a `urls` pattern on a long path that almost matches, the
 * secret scan of `pack` on 120 KB inputs that made its former regular expressions backtrack, and
 * token counts of 400 KB of one word, CJK, combining accents and ZWJ emoji.
 */
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { compilePathPattern, loadUrlPattern } from '../runtime/urls'
import { slowShape } from '../src/compiler/validate/url-shapes'
import { scanFile } from '../src/pack/secrets'
import { loadTokenizer } from '../src/tokens/tokenizer'
import { Samples, perCall } from './stats'
import { type Figure, formatValue } from './table'

/** A subject must finish under this (the issue's "well under a second"). */
const GOAL_MS = 500

/** Sizes of the inputs; tests run them small. */
export interface HostileSizes {
  runs: number
  /** Characters of a page path (the runtime matches up to 8,192). */
  path: number
  /** Bytes of a file the secret scan reads. */
  scan: number
  /** Characters of a text the tokenizer counts. */
  text: number
}

export const HOSTILE_FULL: HostileSizes = { runs: 5, path: 8000, scan: 120_000, text: 400_000 }

const fill = (unit: string, size: number) => unit.repeat(Math.ceil(size / unit.length)).slice(0, size)

/** One case: what runs on the hostile input and on the ordinary one. */
interface Case {
  name: string
  subject: () => unknown
  baseline: () => unknown
  note: string
}

function urlCases(size: number): Case[] {
  // Shapes validation accepts, on paths that almost match them (the hard case for backtracking).
  const patterns = ['/:owner/:repo/*', '/*/issues/*', '/:slug([a-z0-9-]+)', '/:a+/x']
  const compiled = patterns.map((p) => {
    if (slowShape(p)) throw new Error(`the bench's pattern ${p} is refused by validation`)
    return compilePathPattern(p)
  })
  const hostile = [`/${fill('a-', size - 3)}!/`, `/${fill('a/', size - 2)}!`, `/${fill('a.', size - 2)}/`]
  const ordinary = [`/acme/lib/${fill('docs/', size - 10)}`, `/${fill('a', size - 1)}`, `/${fill('page/', size - 1)}`]
  const all = (paths: string[]) => () => {
    for (const pathname of paths) for (const p of compiled) p.test({ pathname })
  }
  return [
    {
      name: `urls: ${patterns.length} accepted patterns on 3 paths of ${size.toLocaleString('en-US')} characters that almost match vs on ordinary paths`,
      subject: all(hostile),
      baseline: all(ordinary),
      note: `patterns ${patterns.join(', ')}; URLPattern ${globalThis.URLPattern ? 'of the platform' : 'polyfill'}`,
    },
  ]
}

function scanCases(size: number): Case[] {
  const html = readFileSync(join(import.meta.dirname, '../learnings/github/fixtures/repo-bun-2024.html'), 'utf8')
  const ordinary = Buffer.from(fill(html, size))
  const hostile = {
    'a cookie header of dotted words': `Cookie: ${fill('a.', size - 8)}`,
    'unclosed input tags': fill('<input ', size),
    'attributes that never close': `${fill(`<input value="a <input value='a `, size - 11)} type=text>`,
  }
  return Object.entries(hostile).map(([what, text]) => {
    const bytes = Buffer.from(text)
    return {
      name: `pack's secret scan, ${(size / 1000).toFixed(0)} KB: ${what} vs a saved page of the same size`,
      subject: () => scanFile(bytes, 'fixtures/hostile.html'),
      baseline: () => scanFile(ordinary, 'fixtures/page.html'),
      note: 'secretlint preset + own readers, in this process',
    }
  })
}

async function tokenCases(size: number): Promise<Case[]> {
  const tokenizer = await loadTokenizer()
  const ordinary = fill('The quick brown fox jumps over the lazy dog; then it naps. ', size)
  const hostile = {
    'one word': fill('abcdefghij', size),
    'CJK without punctuation': fill('漢字仮名交じり文', size),
    'combining accents': fill('e\u0301', size),
    'ZWJ emoji': fill('👩‍👩‍👧‍👦', size),
  }
  return Object.entries(hostile).map(([what, text]) => ({
    name: `token count (o200k_base), ${(size / 1000).toFixed(0)} K characters: ${what} vs English prose`,
    subject: () => tokenizer.count(text),
    baseline: () => tokenizer.count(ordinary),
    note: 'Tokenizer.count as tokenBudget, context --tokens and the MCP default mode call it',
  }))
}

function figureOf(samples: Samples, c: Case, i: number): Figure {
  const subject = samples.get(`s${i}`)
  const baseline = samples.get(`b${i}`)
  const ms = (v: number) => formatValue(v, 'ms')
  return {
    bench: 'hostile',
    name: c.name,
    subject: { label: 'hostile', unit: 'ms', value: subject },
    baseline: { label: 'ordinary', unit: 'ms', value: baseline },
    ratio: samples.ratio(`s${i}`, `b${i}`),
    ratioText: 'the time',
    goal: { text: `under ${ms(GOAL_MS)}`, met: subject.max < GOAL_MS },
    notes: [`${c.note}; medians ${ms(subject.median)} against ${ms(baseline.median)}`],
  }
}

/** Every hostile input against its ordinary one, `runs` times each, alternating. */
export async function runHostileBench(sizes: HostileSizes): Promise<Figure[]> {
  await loadUrlPattern()
  const cases = [...urlCases(sizes.path), ...scanCases(sizes.scan), ...(await tokenCases(sizes.text))]
  const samples = new Samples()
  for (let run = 0; run < sizes.runs; run++) {
    for (const [i, c] of cases.entries()) {
      // Each first in turn, so neither always runs on a colder process.
      const pair: [string, () => unknown][] = [
        [`s${i}`, c.subject],
        [`b${i}`, c.baseline],
      ]
      if (run % 2) pair.reverse()
      for (const [key, fn] of pair) samples.add(key, await perCall(async () => fn(), 0, 1))
    }
  }
  return cases.map((c, i) => figureOf(samples, c, i))
}
