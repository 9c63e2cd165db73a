/**
 * `npx tsx bench/profile-memory.ts [skills] [--live]`: where the memory of a cold Vite build of
 * generated skills goes (default 10,000); `--live` collects garbage before each checkpoint, so the
 * heap figures are what is live (the peaks are then lower than in a normal build). One child process builds with the plugin, with a checkpoint at each
 * stage, and writes the modules it generates; a second has Vite alone build those same modules
 * (no plugin); a third has esbuild alone minify the same browser tools.
 */
import { rm } from 'node:fs/promises'
import { join } from 'node:path'
import { TMP, generateSkills } from './generate'
import { runChild } from './spawn'
import type { Checkpoint } from './stages'

const mib = (kb?: number) => (kb === undefined ? 'n/a' : `${Math.round(kb / 1024).toLocaleString('en-US')} MiB`)

function print(title: string, points: Checkpoint[]): void {
  console.log(`\n${title}`)
  console.log(
    '  stage                                       | RSS now   | peak so far | V8 heap  | external | esbuild peak',
  )
  for (const p of points)
    console.log(
      `  ${p.stage.padEnd(43)} | ${mib(p.rssKb).padStart(9)} | ${mib(p.peakKb).padStart(11)} | ${mib(p.heapKb).padStart(8)} | ${mib(p.externalKb).padStart(8)} | ${mib(p.esbuildPeakKb)}`,
    )
}

async function main(): Promise<void> {
  const live = process.argv.includes('--live')
  const n = Number(process.argv.slice(2).find((a) => /^\d+$/.test(a)) ?? 10_000)
  const execArgv = live ? ['--expose-gc'] : []
  const root = await generateSkills(n)
  const dir = join(TMP, `served-${n}`)
  await rm(dir, { recursive: true, force: true })
  const app = join(TMP, 'app')
  const plugin = await runChild<Checkpoint[]>(
    'memory-stages',
    {
      root,
      app,
      outDir: join(app, 'dist-stages'),
      captureDir: dir,
    },
    execArgv,
  )
  print(
    `Vite build with the plugin, ${n.toLocaleString('en-US')} skills (peak ${mib(plugin.maxRssKb)}, esbuild ${mib(plugin.esbuildRssKb)})`,
    plugin.value,
  )
  const alone = join(TMP, 'app-alone')
  const vite = await runChild<Checkpoint[]>('memory-stages', { app: alone, outDir: join(alone, 'dist'), dir }, execArgv)
  print(`Vite alone on the modules the plugin generated (peak ${mib(vite.maxRssKb)})`, vite.value)
  const esbuild = await runChild('esbuild-only', { root, mode: 'best' })
  console.log(
    `\nesbuild alone on the same browser tools: esbuild peak ${mib(esbuild.esbuildRssKb)}, Node ${mib(esbuild.maxRssKb)}`,
  )
}

main().catch((error: unknown) => {
  console.error(error)
  process.exitCode = 1
})
