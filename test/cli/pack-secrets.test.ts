import { generateKeyPairSync } from 'node:crypto'
import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { SHOP_MANIFEST } from '../helpers/shop-skill'
import { makeTempDir, writeTree } from '../helpers/tmp'
import { runBin } from '../helpers/spawn'

// Every value is assembled here, so that no secret is written in this repository.
const j = (...parts: string[]) => parts.join('')
const RANDOM = 'Zx8d7Q2mN4pL6vB1cR9sT3wY5kH0jF2gA7eU'
const pem = (type: 'rsa' | 'ec') =>
  (type === 'rsa'
    ? generateKeyPairSync('rsa', { modulusLength: 1024 })
    : generateKeyPairSync('ec', { namedCurve: 'P-256' })
  ).privateKey.export({ type: type === 'rsa' ? 'pkcs1' : 'sec1', format: 'pem' }) as string

/** `line:col` of `needle` in `text` (1-based). */
function whereIs(text: string, needle: string): string {
  const before = text.slice(0, text.indexOf(needle)).split('\n')
  return `${before.length}:${before.at(-1)!.length + 1}`
}

/** One file per case of a secret the scan must find: [file, content, where, rule]. */
function cases(): [string, string | Buffer, string, string][] {
  const google = j('AIza', 'Sy', RANDOM.slice(0, 33))
  const har = JSON.stringify(
    {
      log: {
        entries: [
          {
            request: {
              headers: [
                { name: 'Accept', value: 'text/html' },
                { name: 'Authorization', value: j('Basic ', Buffer.from('ada:Tr0ub4dor3').toString('base64')) },
              ],
            },
          },
          { request: { headers: [{ name: 'authorization', value: j('Bearer ', RANDOM) }] } },
        ],
      },
    },
    null,
    1,
  )
  const cookies = JSON.stringify(
    [
      { domain: '.shop.example.com', expirationDate: 1790000000, hostOnly: false, name: 'theme', value: 'dark-mode' },
      { domain: '.shop.example.com', httpOnly: true, name: 'session_id', path: '/', value: j(RANDOM.slice(0, 24)) },
    ],
    null,
    2,
  )
  // A form body inside a recording, after escapes (a line feed, a quote, an accent): found at its place.
  const form = JSON.stringify(
    { log: { entries: [{ request: { postData: { text: j('a\n\u00e9"x"\tuser=ada&password=', 'Tr0ub4dor3') } } }] } },
    null,
    1,
  )
  const secretYaml = [
    'apiVersion: v1',
    'kind: Secret',
    'data:',
    `  tls.key: ${Buffer.from(pem('rsa')).toString('base64')}`,
  ]
  const putty = ['PuTTY-User-Key-File-3: ssh-ed25519', 'Encryption: none', 'Comment: ada', 'Public-Lines: 2']
  return [
    ['notes/google.md', `# Maps\n\nThe page loads maps with key=${google}.\n`, '3:30', 'google-api-key'],
    [
      'notes/azure.md',
      j('Storage: `DefaultEndpointsProtocol=https;AccountName=shop;AccountKey=', RANDOM, RANDOM, '==`\n'),
      '1:70',
      'azure-storage-key',
    ],
    [
      'tools/stripe.txt',
      j('charge with sk_', 'live_', RANDOM, '\nrefund with rk_', 'live_', RANDOM, '\n'),
      '1:13',
      'stripe',
    ],
    ['recordings/basic.har', har, '13:18', 'authorization'],
    ['recordings/form.har', form, whereIs(form, 'Tr0ub4dor3'), 'password'],
    ['notes/env.md', j('# Env\n\nDB_PASSWORD=', 'hunter2x\n'), '3:13', 'password'],
    ['notes/user.md', j('{ "userPassword": "', 'S3cret!pw', '" }\n'), '1:20', 'password'],
    ['notes/django.md', j('SECRET_KEY=', 'django-insecure-', RANDOM, '\n'), '1:12', 'secret-value'],
    ['notes/login.md', j('# Login\n\nuser: ada\npassword: ', 'Tr0ub4dor3', '\n'), '4:11', 'password'],
    [
      'fixtures/unquoted.html',
      j('<form><input type=password name=pw value=', 'hunter22', '></form>\n'),
      '1:42',
      'password',
    ],
    [
      'fixtures/angle.html',
      j('<input data-hint="a > b" type="password" value="', 'hunter22', '">\n'),
      '1:49',
      'password',
    ],
    ['fixtures/meta.html', j('<meta http-equiv="Set-Cookie" content="sid=', RANDOM, '; path=/">\n'), '1:44', 'cookie'],
    ['recordings/cookies.json', cookies, '14:15', 'cookie'],
    ['fixtures/secret.yaml', `${secretYaml.join('\n')}\n`, '4:12', 'private-key'],
    ['notes/key.ppk', `${putty.join('\n')}\n`, '1:1', 'private-key'],
    [
      'notes/windows-key.txt',
      Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(pem('ec'), 'utf16le')]),
      '1:1',
      'private-key',
    ],
  ]
}

/** What the scan must let through: placeholders, empty fields, words and names that only look like secrets. */
const CLEAN = [
  '# Login',
  '',
  'password: required',
  'The token: see the meta tag. DB_PASSWORD=${DB_PASSWORD}, SECRET_KEY=changeme, "key": "read-only"',
  '<input type=password value=""><input type="password" autocomplete="current-password">',
  '<meta http-equiv="Set-Cookie" content="theme=dark; path=/">',
  'Authorization: Bearer <token>',
  '{ "nextPageToken": "CiAKGjBQUldDaEpHMWJuZ0F4RnpTdHJiSlE", "csrf_token": "8f14e45fceea167a5a36dedd4bea2543" }',
  '',
].join('\n')

/**
 * Inputs the former scan's regular expressions took the square or the cube of (120 KB each): a cookie
 * header of dotted words (minutes), many unclosed input tags, attributes that never close.
 */
const HOSTILE = {
  'fixtures/cookie-words.txt': `Cookie: ${'a.'.repeat(60_000)}`,
  'fixtures/inputs.html': '<input '.repeat(120_000 / 7),
  // Read by structure, JSON nested 60,000 deep would overflow the parser's stack: it is read as text.
  'recordings/deep.json': `${'['.repeat(60_000)}${']'.repeat(60_000)}`,
  'fixtures/values.html': `${`<input value="a <input value='a `.repeat(120_000 / 32)} type=text>`,
}

let tmp: Awaited<ReturnType<typeof makeTempDir>>
beforeAll(async () => {
  tmp = await makeTempDir('pack-secrets-')
})
afterAll(() => tmp.cleanup())

const skill = (files: Record<string, string | Buffer>) => ({
  'learnings/shop/manifest.json': SHOP_MANIFEST,
  'learnings/shop/tools/double.js': 'export const double = (ctx, args) => args.n * 2\n',
  ...Object.fromEntries(Object.entries(files).map(([path, content]) => [`learnings/shop/${path}`, content])),
})

describe('site-skills pack: the secret scan', () => {
  it('finds each kind of secret at its file:line:col, exit 1, nothing written', async () => {
    const all = cases()
    const root = join(tmp.dir, 'leaky')
    await writeTree(root, skill(Object.fromEntries(all.map(([file, content]) => [file, content]))))
    const pack = await runBin(['pack', '--out', 'dist/pack', '--json'], { cwd: root, limitMs: 60_000 })
    expect(pack.timedOut).toBe(false)
    expect(pack.code, pack.stderr).toBe(1)
    const found = JSON.parse(pack.stdout).diagnostics.map(
      (d: { file: string; line: number; column: number; message: string }) =>
        `${d.file}:${d.line}:${d.column} ${/\((?:site-skills|secretlint)\/(\S+)\)$/.exec(d.message)?.[1]}`,
    )
    for (const [file, , where, rule] of all) expect(found, found.join('\n')).toContain(`shop/${file}:${where} ${rule}`)
    // Stripe's restricted key on the next line, the recording's Bearer header; nothing else.
    expect(found).toContain('shop/tools/stripe.txt:2:13 stripe')
    expect(found).toContain('shop/recordings/basic.har:23:18 authorization')
    expect(found).toHaveLength(all.length + 2)
    expect(pack.stderr).not.toContain(RANDOM.slice(4))
    expect(existsSync(join(root, 'dist'))).toBe(false)
  })

  it('lets placeholders, empty fields and secret-sounding words through', async () => {
    const root = join(tmp.dir, 'clean')
    await writeTree(root, skill({ 'notes/login.md': CLEAN, 'fixtures/login.html': CLEAN }))
    const pack = await runBin(['pack', '--out', 'dist/pack'], { cwd: root, limitMs: 60_000 })
    expect(pack.code, pack.stderr).toBe(0)
    expect(existsSync(join(root, 'dist/pack/package.json'))).toBe(true)
  })

  it('scans 120 KB inputs that made the former regular expressions backtrack, and packs them', async () => {
    const root = join(tmp.dir, 'hostile')
    await writeTree(root, skill(HOSTILE))
    const pack = await runBin(['pack', '--out', 'dist/pack', '--json'], { cwd: root, limitMs: 30_000 })
    expect(pack.timedOut).toBe(false)
    expect(pack.code, pack.stderr).toBe(0)
    expect(JSON.parse(pack.stdout).files).toBe(9)
  })
})
