import { execFile, execFileSync } from 'node:child_process'
import { chmod, mkdir, rm, symlink, truncate, writeFile } from 'node:fs/promises'
import { createServer } from 'node:net'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest'
import { createDomainTableData } from '../../runtime/match'
import { createSiteSkills } from '../../runtime/registry'
import type { SkillMeta } from '../../runtime/skill-data'
import { FILE_LIMITS } from '../../src/compiler/fs/files'
import { buildApp } from '../helpers/bundlers'
import { compileRoots } from '../helpers/compile'
import { BIN } from '../helpers/spawn'
import { REPO_ROOT, makeTempDir, writeTree } from '../helpers/tmp'
import { NOBODY, unprivilegedCopy } from '../helpers/unprivileged'

const exec = promisify(execFile)
/** A run that hangs is killed here; the assertions ask for far less. */
const KILL_AFTER_MS = 30_000
const WITHIN_MS = 10_000

let tmp: Awaited<ReturnType<typeof makeTempDir>>
beforeAll(async () => {
  tmp = await makeTempDir('hostile-files-')
})
afterAll(() => tmp.cleanup())

interface Run {
  code: number | null
  ms: number
  stderr: string
  report: {
    ok: boolean
    skills: number
    diagnostics: {
      code: string
      file: string
      line: number
      column: number
      siteId: string
      message: string
      hint?: string
    }[]
  }
}

/** `site-skills validate --json ROOT` in its own process (as `nobody`, with that user's copy of the binary, when given), timed. */
async function validate(root: string, nobodyBin?: string): Promise<Run> {
  const argv = [nobodyBin ?? BIN, 'validate', '--json', root]
  const [command, args] = nobodyBin ? ['setpriv', [...NOBODY, process.execPath, ...argv]] : [process.execPath, argv]
  const start = Date.now()
  const options = { cwd: REPO_ROOT, timeout: KILL_AFTER_MS, killSignal: 'SIGKILL' as const }
  const out = await exec(command, args, options).then(
    (r) => ({ code: 0, stdout: r.stdout, stderr: r.stderr }),
    (e: { code: number | null; stdout: string; stderr: string }) => ({
      code: e.code,
      stdout: e.stdout,
      stderr: e.stderr,
    }),
  )
  const ms = Date.now() - start
  return {
    code: out.code,
    ms,
    stderr: out.stderr,
    report: out.stdout ? JSON.parse(out.stdout) : { ok: false, skills: 0, diagnostics: [] },
  }
}

const codesAt = (run: Run) => run.report.diagnostics.map((d) => `${d.file} ${d.code}`).sort()

const RETURNS = { type: 'object', description: 'The result.' }

/** A valid skill with a note, a Node tool and a browser tool; `tools` adds or replaces tools. */
function skill(id: string, tools: Record<string, object> = {}): Record<string, unknown> {
  return {
    [`${id}/manifest.json`]: {
      id,
      name: 'Site',
      // Distinct ids get distinct hosts: "s.t", "s_t" and "Shop" are "x-s-46-t", "x-s-95-t" and "x-83-hop".
      domains: [`x-${id.replace(/[^a-z0-9]/g, (c) => `-${c.codePointAt(0)}-`)}.example.com`],
      notes: ['notes/a.md'],
      nodeTools: {
        search: { description: 'Search.', path: 'tools/search.js', callable: 'search', args: {}, returns: RETURNS },
        ...tools,
      },
      browserTools: { read: { description: 'Read.', path: 'browser-tools/read.js', args: {}, returns: RETURNS } },
    },
    [`${id}/notes/a.md`]: '# Notes\n',
    [`${id}/tools/search.js`]: 'export async function search() { return {} }\n',
    [`${id}/browser-tools/read.js`]: 'async function () { return { title: document.title } }\n',
  }
}

const mkfifo = (path: string) => execFileSync('mkfifo', [path])

/** A character device (/dev/zero's numbers) made with mknod, which needs root; else a socket. */
async function makeSpecialFile(path: string): Promise<void> {
  try {
    execFileSync('mknod', [path, 'c', '1', '5'], { stdio: 'ignore' })
  } catch {
    const server = createServer()
    await new Promise<void>((resolve) => server.listen(path, resolve))
    server.close()
  }
}

describe('files that are not regular files', () => {
  it('reports a FIFO as manifest, note, Node tool or browser tool, and exits within seconds', async () => {
    const root = join(tmp.dir, 'fifo')
    await writeTree(root, {
      ...skill('good'),
      ...skill('note'),
      ...skill('tool'),
      ...skill('browser'),
      ...skill('manifest'),
    })
    for (const file of [
      'note/notes/a.md',
      'tool/tools/search.js',
      'browser/browser-tools/read.js',
      'manifest/manifest.json',
    ]) {
      await rm(join(root, file))
      mkfifo(join(root, file))
    }
    const run = await validate(root)
    expect(run.ms).toBeLessThan(WITHIN_MS)
    expect(run.code).toBe(1)
    expect(codesAt(run)).toEqual([
      'browser/browser-tools/read.js file-not-regular',
      'manifest/manifest.json file-not-regular',
      'note/notes/a.md file-not-regular',
      'tool/tools/search.js file-not-regular',
    ])
    expect(run.report.diagnostics.find((d) => d.siteId === 'note')!.message).toBe(
      'note "notes/a.md" is a named pipe (FIFO), not a regular file',
    )
  })

  it('reports a FIFO or oversized fixture, and `site-skills test` exits on its own (issue 24.7)', async () => {
    const root = join(tmp.dir, 'fixtures')
    const files = skill('fix')
    const manifest = files['fix/manifest.json'] as {
      nodeTools: Record<string, Record<string, unknown>>
      browserTools: Record<string, Record<string, unknown>>
    }
    const url = 'https://x-fix.example.com/'
    manifest.browserTools.read!.examples = [
      { args: {}, url, fixture: 'fixtures/page.html' },
      { args: {}, url, fixture: 'fixtures/page.html' },
      { args: {}, url, fixture: 'fixtures/huge.html' },
    ]
    manifest.nodeTools.search!.examples = [{ args: {}, url, fixture: 'fixtures/data.json' }]
    await writeTree(root, { ...files, 'fix/fixtures/huge.html': '' })
    mkfifo(join(root, 'fix/fixtures/page.html'))
    mkfifo(join(root, 'fix/fixtures/data.json'))
    await truncate(join(root, 'fix/fixtures/huge.html'), FILE_LIMITS.fixture + 1)
    const run = await validate(root)
    expect(run.ms).toBeLessThan(WITHIN_MS)
    expect(run.code).toBe(1)
    expect(run.report.diagnostics.map((d) => `${d.file}:${d.line}:${d.column} ${d.code} ${d.message}`)).toEqual([
      'fix/fixtures/data.json:1:1 file-not-regular fixture "fixtures/data.json" is a named pipe (FIFO), not a regular file',
      `fix/fixtures/huge.html:1:1 file-too-large fixture "fixtures/huge.html" is ${FILE_LIMITS.fixture + 1} bytes; the limit is ${FILE_LIMITS.fixture} bytes (16 MiB)`,
      'fix/fixtures/page.html:1:1 file-not-regular fixture "fixtures/page.html" is a named pipe (FIFO), not a regular file',
    ])
    const started = Date.now()
    const test = await exec(process.execPath, [BIN, 'test', '--root', root, '--json'], {
      cwd: REPO_ROOT,
      timeout: KILL_AFTER_MS,
      killSignal: 'SIGKILL',
    }).then(
      () => ({ code: 0, stdout: '', signal: null }),
      (e: { code: number | null; stdout: string; signal: string | null }) => e,
    )
    expect(test.signal).toBeNull()
    expect(Date.now() - started).toBeLessThan(WITHIN_MS)
    expect(test.code).toBe(1)
    // The skill's errors decide, and --json says which they are (its examples did not run).
    const report = JSON.parse(test.stdout) as { ok: boolean; diagnostics: { file: string; code: string }[] }
    expect(report.ok).toBe(false)
    expect(report.diagnostics.map((d) => `${d.file} ${d.code}`).sort()).toEqual([
      'fix/fixtures/data.json file-not-regular',
      'fix/fixtures/huge.html file-too-large',
      'fix/fixtures/page.html file-not-regular',
    ])
  })

  it('never reads a device inside a skill folder, and rejects a symlink to /dev/zero as leaving the folder', async () => {
    const root = join(tmp.dir, 'device')
    await writeTree(root, { ...skill('dev'), ...skill('link'), ...skill('good') })
    await rm(join(root, 'dev/notes/a.md'))
    await makeSpecialFile(join(root, 'dev/notes/a.md'))
    await rm(join(root, 'link/notes/a.md'))
    await symlink('/dev/zero', join(root, 'link/notes/a.md'))
    const run = await validate(root)
    expect(run.ms).toBeLessThan(WITHIN_MS)
    expect(run.code).toBe(1)
    expect(codesAt(run)).toEqual(['dev/notes/a.md file-not-regular', 'link/manifest.json path-escape'])
  })
})

describe('file size limits', () => {
  it('reports a 600 MB note at the file and still reports every other skill', async () => {
    const root = join(tmp.dir, 'huge')
    await writeTree(root, { ...skill('huge'), ...skill('broken'), ...skill('good') })
    await truncate(join(root, 'huge/notes/a.md'), 600 * 1024 * 1024)
    await writeFile(join(root, 'broken/browser-tools/read.js'), 'async function ( {\n')
    const run = await validate(root)
    expect(run.ms).toBeLessThan(WITHIN_MS)
    expect(run.code).toBe(1)
    expect(run.stderr).not.toMatch(/\n\s+at /)
    expect(codesAt(run)).toEqual(['broken/browser-tools/read.js tool-parse', 'huge/notes/a.md file-too-large'])
    expect(run.report.diagnostics.find((d) => d.siteId === 'huge')!.message).toBe(
      'note "notes/a.md" is 629145600 bytes; the limit is 4194304 bytes (4 MiB)',
    )
  })

  it('holds a note or tool to 4 MiB: at the limit it passes, one byte over it does not', async () => {
    const root = join(tmp.dir, 'limits')
    await writeTree(root, { ...skill('at'), ...skill('over'), ...skill('tool') })
    await writeFile(join(root, 'at/notes/a.md'), 'x'.repeat(FILE_LIMITS.note))
    await writeFile(join(root, 'over/notes/a.md'), 'x'.repeat(FILE_LIMITS.note + 1))
    await truncate(join(root, 'tool/tools/search.js'), FILE_LIMITS.tool + 1)
    const result = await compileRoots([root])
    expect(result.diagnostics.map((d) => `${d.file} ${d.code}`)).toEqual([
      'over/notes/a.md file-too-large',
      'tool/tools/search.js file-too-large',
    ])
    expect(result.skills.map((s) => s.model.id)).toEqual(['at'])
  })

  it('fails a real build on a 200 MB note with the same diagnostic at the file', async () => {
    const root = join(tmp.dir, 'build-huge')
    await writeTree(root, skill('huge'))
    await truncate(join(root, 'huge/notes/a.md'), 200 * 1024 * 1024)
    const error = await buildApp('esbuild', {
      outDir: join(tmp.dir, 'build-huge-out'),
      options: { roots: root, dts: false },
    }).then(
      () => undefined,
      (e: Error) => e,
    )
    // esbuild prints each diagnostic as its own message at the file (its columns are 0-based).
    expect(error?.message).toContain('huge/notes/a.md:1:0: ERROR: [plugin: unplugin-site-skills] file-too-large')
    expect(error?.message).toContain('note "notes/a.md" is 209715200 bytes')
  })
})

describe('files that cannot be read', () => {
  it('reports an unreadable manifest, note or tool for that skill only, run as an unprivileged user', async () => {
    // Both the binary and the skills must be readable by nobody wherever this clone lives.
    const copy = await unprivilegedCopy()
    onTestFinished(copy.cleanup)
    const root = join(copy.dir, 'unreadable')
    await writeTree(root, { ...skill('good'), ...skill('note'), ...skill('tool'), ...skill('manifest') })
    for (const file of ['note/notes/a.md', 'tool/tools/search.js', 'manifest/manifest.json'])
      await chmod(join(root, file), 0o600)
    const run = await validate(root, copy.bin)
    expect(run.ms).toBeLessThan(WITHIN_MS)
    expect(run.code).toBe(1)
    expect(run.stderr).toBe('')
    expect(codesAt(run)).toEqual([
      'manifest/manifest.json file-unreadable',
      'note/notes/a.md file-unreadable',
      'tool/tools/search.js file-unreadable',
    ])
    expect(run.report.diagnostics.map((d) => d.message)).toContain(
      'manifest.json cannot be read: permission denied (EACCES)',
    )
    expect(run.report.skills).toBe(4)
  })
})

describe('names', () => {
  it('rejects control and format characters in tool names and skill ids', async () => {
    const root = join(tmp.dir, 'invisible')
    const tool = { description: 'Search.', path: 'tools/search.js', callable: 'search', args: {}, returns: RETURNS }
    await writeTree(root, {
      ...skill('nul', { 'a\u0000b': tool, a: tool }),
      ...skill('rtl', { 'x\u202ey': tool }),
      ...skill('zw\u200bid'),
    })
    const run = await validate(root)
    expect(run.code).toBe(1)
    expect(run.report.diagnostics.map((d) => `${d.siteId} ${d.code} ${d.message}`).sort()).toEqual([
      'nul tool-name nodeTools contains tool name "a\\u0000b" with U+0000, a control or format character',
      'rtl tool-name nodeTools contains tool name "x\\u202ey" with U+202E, a control or format character',
      'zw\u200bid id-invalid skill id "zw\\u200bid" (its folder name) contains U+200B, a control or format character',
    ])
  })

  it('rejects line separators and lone surrogates at the name, and keeps what the original accepts (issue 24.1)', async () => {
    const root = join(tmp.dir, 'separators')
    const tool = { description: 'Search.', path: 'tools/search.js', callable: 'search', args: {}, returns: RETURNS }
    const exploit = 'a\u2028,(globalThis.__pwned=location.href),window'
    await writeTree(root, {
      ...skill('pwn', { [exploit]: tool, 'b\ud800': tool }),
      ...skill('para\u2029id'),
      // Spaces, quotes and letters of any script: the original accepts them, so do we.
      ...skill('fine', { 'lire la "page" d’accueil': tool, "it's ü": tool, 名前: tool }),
    })
    const run = await validate(root)
    expect(run.code).toBe(1)
    const found = run.report.diagnostics.map((d) => `${d.file}:${d.line}:${d.column} ${d.code} ${d.message}`)
    expect(found.sort()).toEqual([
      'para\u2029id/manifest.json:2:3 id-invalid skill id "para\\u2029id" (its folder name) contains U+2029, a line or paragraph separator (it ends a line of JavaScript)',
      'pwn/manifest.json:21:5 tool-name nodeTools contains tool name "a\\u2028,(globalThis.__pwned=location.href),window" with U+2028, a line or paragraph separator (it ends a line of JavaScript)',
      'pwn/manifest.json:31:5 tool-name nodeTools contains tool name "b\\ud800" with U+D800, a lone surrogate (no character)',
    ])
    const hints = run.report.diagnostics.map((d) => d.hint)
    expect(hints.every((h) => h && /visible characters/.test(h))).toBe(true)
    expect(run.report.skills).toBe(3)
  })

  it('dispatches a model tool name to the tool it names, whatever characters the tool name holds', async () => {
    const tool = (file: string) => ({
      kind: 'node' as const,
      description: 'T.',
      args: {},
      returns: RETURNS as SkillMeta['tools'][string]['returns'],
      file,
    })
    const meta: SkillMeta[] = [
      { id: 's', name: 'S', domains: ['s.example.com'], notes: [], tools: { a: tool('a'), 'a\u0000b': tool('ab') } },
    ]
    const chunk = {
      notes: [],
      browserTools: {},
      nodeTools: { a: async () => () => 'a', 'a\u0000b': async () => () => 'a\\0b' },
    }
    const api = createSiteSkills(
      { skills: meta, table: createDomainTableData([meta[0]!.domains]) },
      { s: async () => chunk },
    )
    const names = api.toolDefinitions('https://s.example.com/').names
    const nulName = Object.keys(names).find((n) => names[n]!.tool === 'a\u0000b')!
    expect(await api.dispatchToolCall(nulName, {})).toBe('a\\0b')
  })

  it('fails the build when two tools get one model tool name, within a skill or across skills', async () => {
    const root = join(tmp.dir, 'collide')
    const tool = { description: 'Search.', path: 'tools/search.js', callable: 'search', args: {}, returns: RETURNS }
    const long = 'x'.repeat(70)
    await writeTree(root, {
      ...skill('one', { 'a.b': tool, a_b: tool, [`${long}1`]: tool, [`${long}2`]: tool }),
      ...skill('s.t'),
      ...skill('s_t'),
    })
    const result = await compileRoots([root])
    expect(result.diagnostics.map((d) => `${d.file}:${d.line}:${d.column} ${d.code} ${d.message}`)).toEqual([
      'one/manifest.json:31:5 tool-name-collision tool "a_b" has the model tool name "one__a_b", as tool "a.b"',
      `one/manifest.json:51:5 tool-name-collision tool "${long}2" has the model tool name "one__${long.slice(0, 55)}", as tool "${long}1"`,
      's_t/manifest.json:11:5 tool-name-collision tool "search" has the model tool name "s_t__search", as tool "search" of skill "s.t"',
      's_t/manifest.json:23:5 tool-name-collision tool "read" has the model tool name "s_t__read", as tool "read" of skill "s.t"',
    ])
    const error = await buildApp('esbuild', {
      outDir: join(tmp.dir, 'collide-out'),
      options: { roots: root, dts: false },
    }).then(
      () => undefined,
      (e: Error) => e,
    )
    expect(error?.message).toContain('manifest.json:31:4: ERROR: [plugin: unplugin-site-skills] tool-name-collision')
  })

  it('warns about skill ids that differ only in case', async () => {
    const root = join(tmp.dir, 'case')
    await writeTree(root, { ...skill('Shop'), ...skill('shop') })
    const result = await compileRoots([root])
    expect(result.diagnostics.map((d) => `${d.file} ${d.severity} ${d.code} ${d.message}`)).toEqual([
      'shop/manifest.json warning id-case-collision skill id "shop" differs from "Shop" only in case',
    ])
  })
})

describe('domain patterns', () => {
  const domainsOf = async (name: string, domains: string[]) => {
    const root = join(tmp.dir, name)
    const files = skill('d')
    ;(files['d/manifest.json'] as { domains: string[] }).domains = domains
    await mkdir(root, { recursive: true })
    await writeTree(root, files)
    const result = await compileRoots([root])
    return {
      domains: result.skills[0]?.model.domains,
      problems: result.diagnostics.map((d) => `${d.code} ${d.message}`),
    }
  }

  it('normalizes IPv6 literals as the URL parser does and rejects invalid ones', async () => {
    expect(await domainsOf('ipv6-ok', ['[0:0:0:0:0:0:0:1]', '[2001:DB8::0:1]'])).toEqual({
      domains: ['[::1]', '[2001:db8::1]'],
      problems: [],
    })
    expect((await domainsOf('ipv6-bad', ['[:::]', '[1.2.3.4]', 'ok.example.com'])).problems).toEqual([
      'domain-invalid invalid domain "[:::]": is not a valid IPv6 address',
      'domain-invalid invalid domain "[1.2.3.4]": is not a valid IPv6 address',
    ])
  })

  it('rejects labels over 63 and hosts over 253 characters', async () => {
    const label = (n: number) => 'a'.repeat(n)
    const host253 = `${[label(63), label(63), label(63)].join('.')}.${label(57)}.com`
    expect(host253.length).toBe(253)
    expect((await domainsOf('len-ok', [`${label(63)}.example.com`, host253])).problems).toEqual([])
    expect((await domainsOf('len-bad', [`${label(64)}.example.com`, `b.${host253}`, `*.${host253}`])).problems).toEqual(
      [
        `domain-invalid invalid domain "${label(64)}.example.com": the label "${label(20)}..." is 64 characters long; a label has at most 63`,
        `domain-invalid invalid domain "b.${host253}": the host is 255 characters long; the limit is 253`,
        `domain-invalid invalid domain "*.${host253}": the host is 253 characters long; the limit is 251 under a wildcard`,
      ],
    )
  })
})
