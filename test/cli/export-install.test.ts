import { spawn } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { decodeCompact } from '../helpers/compact-decode'
import { REPO_ROOT, makeTempDir } from '../helpers/tmp'
import { runBin, cleanEnv, waitForExit } from '../helpers/spawn'

/*
 * Exported Agent Skills say what to install, and their scripts run the version that wrote them
 * (issue 40.17: they ran `unplugin-site-skills@^0.1.0`, whatever release of that line npx found).
 */
const VERSION = (JSON.parse(readFileSync(join(REPO_ROOT, 'package.json'), 'utf8')) as { version: string }).version
let tmp: Awaited<ReturnType<typeof makeTempDir>>
let out = ''

beforeAll(async () => {
  tmp = await makeTempDir('export-install-')
  out = join(tmp.dir, 'skills')
  const run = await runBin(['export', 'demo-shop', '--agent-skills', '--out', out], { limitMs: 30_000 })
  expect(run.code, run.stderr).toBe(0)
})
afterAll(() => tmp?.cleanup())

describe('site-skills export --agent-skills: what the scripts run', () => {
  it('SKILL.md says what to install: this package at the version that wrote it', () => {
    const skill = readFileSync(join(out, 'demo-shop/SKILL.md'), 'utf8')
    expect(skill).toContain(`Install it in the project once: \`npm i -D unplugin-site-skills@${VERSION}\``)
    expect(skill).not.toContain('@^')
  })

  it('each script runs that version (npx takes it from the project when it holds it, as here)', async () => {
    const script = join(out, 'demo-shop/scripts/price_summary.sh')
    const text = readFileSync(script, 'utf8')
    expect(text).toContain(`npx --yes --package=unplugin-site-skills@${VERSION} -- `)
    const child = spawn('sh', [script, '--args', '{"items":[{"id":"a","price":2}]}'], {
      cwd: REPO_ROOT,
      env: cleanEnv({ npm_config_update_notifier: 'false' }),
      stdio: ['ignore', 'pipe', 'pipe'],
    })
    const run = await waitForExit(child, 30_000)
    expect(run.code, run.stderr).toBe(0)
    // The scripts print the compact text models read (SPEC 12).
    expect(decodeCompact(run.stdout.trimEnd())).toMatchObject({ count: 1, min: 2, max: 2 })
  })
})
