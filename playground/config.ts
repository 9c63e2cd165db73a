import { fileURLToPath } from 'node:url'
import type { UserConfig } from 'vite'
import siteSkills from '../src/vite'

/**
 * The playground: `agent.ts` (a Node agent, built with `vite build --ssr`) and the skills
 * explorer (`index.html`, `npm run dev` here), both on virtual:site-skills.
 */
export function playgroundConfig(options: { roots?: string; dts?: string | false } = {}): UserConfig {
  return {
    root: fileURLToPath(new URL('.', import.meta.url)),
    plugins: [siteSkills({ roots: options.roots ?? '../learnings', dts: options.dts })],
    build: { outDir: 'dist/explorer', emptyOutDir: true },
    server: { host: '127.0.0.1' },
  }
}
