import { readFileSync, readdirSync } from 'node:fs'
import { join, posix } from 'node:path'
import ts from 'typescript'
import { describe, expect, it } from 'vitest'
import { finishesWithin } from '../helpers/deadline'
import { type RegexSource, adversarialInputs, probeRegexes } from '../helpers/regex-probe'
import { REPO_ROOT } from '../helpers/tmp'

// Issue 35: no input from a skill, a page or a client reaches super-linear work without a bound.
// The regular expressions that read such input (pack's secret scan reads a skill's files, the URL
// rules read a page's URL and a skill's patterns) are each run here on adversarial strings of
// 100 KB: every character of the pattern repeated, each literal word repeated, each word followed
// by long runs, all ending in a character that makes the match fail late. A pattern that
// backtracks (a nested quantifier, overlapping alternatives under a `*`) takes minutes on them;
// the linear ones take milliseconds. The run is in a worker with a deadline far above the linear
// time, so a hang fails the test, naming the pattern, instead of stalling the suite. Every regex
// literal of these files is taken, so a new one is covered as it is written.
const FOLDERS = ['src/pack/scan', 'src/pack/secrets.ts', 'runtime/urls.ts', 'src/compiler/validate/url-shapes.ts']
const SIZE = 100 * 1024
const DEADLINE_MS = 60_000

/** The `.ts` files of the folders (or the files themselves). */
function filesOf(paths: readonly string[]): string[] {
  return paths.flatMap((path) =>
    path.endsWith('.ts')
      ? [path]
      : readdirSync(join(REPO_ROOT, path))
          .filter((name) => name.endsWith('.ts'))
          .map((name) => posix.join(path, name)),
  )
}

/** The text of a string constant: a literal, or String.raw`...` without substitutions. */
function constantText(node: ts.Expression | undefined): string | undefined {
  if (!node) return undefined
  if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) return node.text
  if (ts.isTaggedTemplateExpression(node) && ts.isNoSubstitutionTemplateLiteral(node.template))
    return node.template.rawText
  return undefined
}

/** Every regex literal of a file, and every `new RegExp(CONSTANT, 'flags')` whose constant is a string of the file. */
function regexesOf(file: string): RegexSource[] {
  const source = ts.createSourceFile(file, readFileSync(join(REPO_ROOT, file), 'utf8'), ts.ScriptTarget.Latest, true)
  const constants = new Map<string, string>()
  const found: RegexSource[] = []
  const at = (node: ts.Node) => `${file}:${source.getLineAndCharacterOfPosition(node.getStart()).line + 1}`
  const visit = (node: ts.Node) => {
    if (ts.isVariableDeclaration(node) && ts.isIdentifier(node.name)) {
      const text = constantText(node.initializer)
      if (text !== undefined) constants.set(node.name.text, text)
    }
    if (ts.isRegularExpressionLiteral(node)) {
      const end = node.text.lastIndexOf('/')
      found.push({ at: at(node), source: node.text.slice(1, end), flags: node.text.slice(end + 1) })
    }
    if (ts.isNewExpression(node) && ts.isIdentifier(node.expression) && node.expression.text === 'RegExp') {
      const [pattern, flags] = node.arguments ?? []
      const text = pattern && ts.isIdentifier(pattern) ? constants.get(pattern.text) : constantText(pattern)
      if (text !== undefined) found.push({ at: at(node), source: text, flags: constantText(flags) ?? '' })
    }
    ts.forEachChild(node, visit)
  }
  visit(source)
  return found
}

const REGEXES = filesOf(FOLDERS).flatMap(regexesOf)

describe('regular expressions that read what others write', () => {
  it('are found in every file named (the check cannot pass by reading nothing)', () => {
    expect(REGEXES.length).toBeGreaterThanOrEqual(25)
    const sources = REGEXES.map((r) => r.source)
    expect(sources).toContain('(?<![A-Za-z0-9+/=_-])[A-Za-z0-9+/]{60,}={0,2}')
    expect(sources).toContain(String.raw`<(input|meta)(?=[\s/>])`)
    expect(REGEXES.some((r) => r.at.startsWith('runtime/urls.ts'))).toBe(true)
    expect(REGEXES.some((r) => r.at.startsWith('src/compiler/validate/url-shapes.ts'))).toBe(true)
  })

  it('builds inputs of the pattern: its literals repeated, a literal then a long run, its characters', () => {
    const inputs = adversarialInputs(String.raw`(?<!\w)AccountKey=([A-Za-z0-9+/]{40,128}={0,2})`, 1000)
    expect(inputs.every((s) => s.length === 1000 && s.endsWith('\u0001'))).toBe(true)
    expect(inputs).toContain(`${'AccountKey='.repeat(91).slice(0, 999)}\u0001`)
    expect(inputs).toContain(`AccountKey=: ${'a.'.repeat(493)}\u0001`)
    expect(inputs).toContain(`${'+'.repeat(999)}\u0001`)
    // The former cookie pattern of pack took minutes on this one (issue 35).
    expect(adversarialInputs('cookie["\']?\\s*[:=]', 100)).toContain(`cookie: ${'a.'.repeat(45)}a\u0001`)
  })

  it('stops a pattern that backtracks and names it (the check can fail)', async () => {
    const slow = [{ at: 'a test', source: '^(a+)+$', flags: '' }]
    await expect(
      finishesWithin(join(REPO_ROOT, 'test/helpers/regex-probe.ts'), probeRegexes.name, [slow, 64], 3000),
    ).rejects.toThrow('probeRegexes did not finish within 3000 ms (it was stopped): at a test /^(a+)+$/')
  })

  it(`each finishes on adversarial inputs of ${SIZE / 1024} KB`, async () => {
    const found = await finishesWithin(
      join(REPO_ROOT, 'test/helpers/regex-probe.ts'),
      probeRegexes.name,
      [REGEXES, SIZE],
      DEADLINE_MS,
    )
    expect(found).toBeTypeOf('number')
  }, 90_000)
})
