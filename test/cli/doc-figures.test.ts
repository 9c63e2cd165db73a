import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { DOCS } from '../package/readme'
import { REPO_ROOT } from '../helpers/tmp'
import { runBin } from '../helpers/spawn'

/*
 * The figures the documentation shows as a command's output are that command's output today
 * (issue 40.11: docs/skills.md showed Hacker News at 2,495/3,925 tokens, the command printed 2,485/3,915).
 */
const LEARNINGS = join(REPO_ROOT, 'learnings')

/** Every shell block that shows a command (`$ npx site-skills ...`) and what it prints, with its page. */
function shownRuns(): { page: string; argv: string[]; shown: string[] }[] {
  return [...DOCS].flatMap(([page, text]) =>
    [...text.matchAll(/^```sh\n\$ npx site-skills ([^\n]+)\n([\s\S]*?)^```$/gm)].map((m) => ({
      page,
      argv: m[1]!.trim().split(/\s+/),
      shown: m[2]!.split('\n').filter((line) => line.trim() !== ''),
    })),
  )
}

describe('command output shown in the documentation', () => {
  it('is what the command prints on the shipped skills, line by line ("..." stands for lines left out)', async () => {
    const runs = shownRuns()
    expect(runs.length).toBeGreaterThanOrEqual(1)
    for (const { page, argv, shown } of runs) {
      const run = await runBin([...argv, '--root', LEARNINGS], { limitMs: 20_000 })
      expect(run.code, `${page}: ${argv.join(' ')}\n${run.stderr}`).toBe(0)
      const printed = run.stdout.split('\n')
      let at = 0
      for (const line of shown) {
        if (line.trim() === '...') continue
        const found = printed.indexOf(line, at)
        const what = `${page}: "${line}" is not printed (in this order) by ${argv.join(' ')}:\n${run.stdout}`
        expect(found, what).toBeGreaterThanOrEqual(0)
        at = found + 1
      }
    }
  })

  it("gives a Gmail page's tools and their tokens in docs/skills.md as context --tokens counts them", async () => {
    const url = 'https://mail.google.com/mail/u/0/'
    const run = await runBin(['context', url, '--tokens', '--json', '--root', LEARNINGS], { limitMs: 20_000 })
    expect(run.code, run.stderr).toBe(0)
    const [skill] = JSON.parse(run.stdout).tokens.skills as { tools: { tokens: number }[] }[]
    const tools = skill!.tools.reduce((n, t) => n + t.tokens, 0)
    const said = `a Gmail page gets ${skill!.tools.length} tools, ${tools.toLocaleString('en-US')} tokens`
    expect(DOCS.get('docs/skills.md')!.replace(/\s+/g, ' '), said).toContain(said)
  })
})
