import { chmod, mkdir, readdir } from 'node:fs/promises'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { makeTempDir, writeTree } from '../helpers/tmp'
import { runBin } from '../helpers/spawn'

// A TypeScript Node tool is compiled to a cached .mjs in the temporary folder and imported from
// there: a folder another user could have made, or redirected with a symlink, must not be used.
describe('the compiled Node tool cache', () => {
  it('writes into no symlinked or open cache folder, and the tool still runs', async () => {
    const { dir, cleanup } = await makeTempDir('node-cache-')
    try {
      const uid = process.getuid?.() ?? 'user'
      await writeTree(dir, {
        'outside/.keep': '',
        'tmp/site-skills-node-tools': { symlink: '../outside' },
        [`tmp/site-skills-node-tools-${uid}`]: { symlink: '../outside' },
        'skills/ts/manifest.json': {
          id: 'ts',
          name: 'TS',
          domains: ['ts.example.com'],
          nodeTools: {
            hello: {
              description: 'Say hello.',
              path: 'tools/hello.ts',
              callable: 'hello',
              args: {},
              returns: { type: 'object', description: 'The greeting.' },
              examples: [{ name: 'hi', args: {}, expect: { text: 'hello' } }],
            },
          },
        },
        'skills/ts/tools/hello.ts':
          'export async function hello(): Promise<{ text: string }> {\n  return { text: "hello" }\n}\n',
      })
      const env = { TMPDIR: join(dir, 'tmp') }
      const linked = await runBin(['test', '--root', join(dir, 'skills')], { env })
      expect(linked.stdout, linked.stderr).toMatch(
        /^✔ ts › hello › hi {2}~\d+ tokens\n1 passed, 0 failed \(1 example\)\n$/,
      )
      expect(await readdir(join(dir, 'outside'))).toEqual(['.keep'])
      // A real folder of that name, but writable by others: not used either.
      const open = join(dir, 'tmp2', `site-skills-node-tools-${uid}`)
      await mkdir(open, { recursive: true })
      await chmod(open, 0o777)
      const opened = await runBin(['test', '--root', join(dir, 'skills')], { env: { TMPDIR: join(dir, 'tmp2') } })
      expect(opened.code, opened.stderr).toBe(0)
      expect(await readdir(open)).toEqual([])
    } finally {
      await cleanup()
    }
  })
})
