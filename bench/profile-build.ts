/**
 * `npx tsx bench/profile-build.ts [runs]`: where a cold Vite build of 1,000 skills spends its time,
 * for both tool mixes, next to esbuild alone on the same tools (one child process per build).
 */
import { join } from 'node:path'
import { type ViteBuildResult, breakdownNote } from './build'
import { TMP, generateSkills } from './generate'
import { runChild } from './spawn'

async function main(): Promise<void> {
  const runs = Number(process.argv[2] ?? 1)
  for (const mix of ['modules', 'bare'] as const) {
    const root = await generateSkills(1000, mix === 'bare' ? 'skills-1000-bare' : 'skills-1000', false, mix === 'bare')
    const app = join(TMP, 'app')
    const vite: ViteBuildResult[] = []
    const esbuild: number[] = []
    for (let i = 0; i < runs; i++) {
      vite.push((await runChild<ViteBuildResult>('vite-build', { root, app, outDir: join(app, 'dist-cold') })).value)
      esbuild.push((await runChild<{ ms: number }>('esbuild-only', { root, mode: 'best' })).value.ms)
    }
    const ms = (xs: number[]) => xs.map(Math.round).join(', ')
    console.log(
      `${mix}: vite ${ms(vite.map((v) => v.ms))} ms (CPU ${ms(vite.map((v) => v.cpuMs))} ms); esbuild alone ${ms(esbuild)} ms`,
    )
    for (const line of breakdownNote(vite)) console.log(`  ${line}`)
  }
}

main().catch((error: unknown) => {
  console.error(error)
  process.exitCode = 1
})
