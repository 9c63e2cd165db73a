import { readFile, writeFile } from 'node:fs/promises'
import { join, resolve } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { callBrowserTool } from '../../runtime/browser'
import { type LaunchedBrowser, launchBrowser } from '../../runtime/launch'
import type { BrowserToolCode } from '../../runtime/types'
import { createBrowserBundler } from '../../src/compiler/bundle/browser-tools'
import { makeTempDir } from '../helpers/tmp'
import { showFixture } from './page-fixtures'

// The parts of github's read_markdown on READMEs written here: a long README opens with a shorter
// part and the outline of the rest, a short one comes whole. Served in headless Chromium under a
// repository's address and read by the shipped tool.
const ROOT = resolve(__dirname, '../../learnings')
const URL = 'https://github.com/octo/lib'

let browser: LaunchedBrowser
let tmp: { dir: string; cleanup: () => Promise<void> }
let code: BrowserToolCode

interface Part {
  text: string
  next: number | null
  outline?: { offset: number; heading: string }[]
}

let pages = 0
async function read(readme: string, args: Record<string, unknown> = {}): Promise<Part> {
  const file = join(tmp.dir, `page-${++pages}.html`)
  await writeFile(
    file,
    `<!DOCTYPE html><html><head><meta charset="utf-8"></head><body><article class="markdown-body">${readme}</article></body></html>`,
  )
  const page = await browser.newPage('about:blank')
  try {
    await showFixture(page.client, URL, file)
    const call = { siteId: 'github', tool: 'read_markdown', code, args, domains: ['github.com'], timeoutMs: 15_000 }
    return (await callBrowserTool(page.client, call)) as Part
  } finally {
    await page.close()
  }
}

/** A paragraph of about 100 characters. */
const para = (n: number) => `<p>Paragraph ${n} ${'of words '.repeat(10)}end.</p>`

beforeAll(async () => {
  tmp = await makeTempDir('github-markdown-')
  browser = await launchBrowser()
  const absPath = join(ROOT, 'github/browser-tools/read-markdown.js')
  const module = /^\s*(import|export)\b/m.test(await readFile(absPath, 'utf8'))
  const request = {
    siteId: 'github',
    root: ROOT,
    tool: 'read_markdown',
    absPath,
    module,
    realDir: join(ROOT, 'github'),
  }
  const compiled = (await createBrowserBundler({ minify: true }).bundle([request])).get(request)?.code
  if (!compiled) throw new Error('github/read_markdown did not compile')
  code = compiled
})

afterAll(async () => {
  await browser?.close()
  await tmp?.cleanup()
})

describe('read_markdown parts', () => {
  // 12 parts, each an h2 and three h3s over a paragraph of about 100 characters: about 4,500
  // characters in 84 blocks (part i's h2 is block 7i).
  const long = Array.from({ length: 12 }, (_, i) =>
    [`<h2>Part ${i}</h2>`, ...Array.from({ length: 3 }, (_, j) => `<h3>Step ${i}.${j}</h3>${para(i * 4 + j)}`)].join(
      '',
    ),
  ).join('')

  it('opens a long README with about 1,500 characters and the outline of the rest', async () => {
    const part = await read(long)
    expect(part.text.length).toBeLessThanOrEqual(1500)
    expect(part.text.length).toBeGreaterThan(1000)
    expect(part.next).toBeGreaterThan(0)
    const outline = part.outline ?? []
    expect(outline[0]?.offset).toBeGreaterThanOrEqual(part.next!)
    // Each entry is where its heading starts: reading from its offset starts with it.
    const at = outline[1]!
    expect((await read(long, { offset: at.offset })).text.startsWith(at.heading)).toBe(true)
  })

  it('keeps the shallowest levels when the rest has more than 24 headings', async () => {
    const part = await read(long)
    const h2 = Array.from({ length: 12 }, (_, i) => ({ offset: 7 * i, heading: `## Part ${i}` }))
    const rest = h2.filter((h) => h.offset >= part.next!)
    // More than 24 headings after the opening (each part has four): the h3s are left out.
    expect(rest.length * 4).toBeGreaterThan(24)
    expect(part.outline).toEqual(rest)
  })

  it('gives a part of maxChars and its outline when the size is given', async () => {
    const part = await read(long, { maxChars: 3000 })
    expect(part.text.length).toBeGreaterThan(2000)
    expect(part.outline?.length).toBeGreaterThan(0)
  })

  it('gives a README shorter than a part whole, without an outline', async () => {
    const part = await read(`<h1>lib</h1>${para(1)}<h2>Use</h2>${para(2)}`)
    expect(part).toEqual({ text: `# lib\n\n${para(1).slice(3, -4)}\n\n## Use\n\n${para(2).slice(3, -4)}`, next: null })
  })

  it('reads later parts without an outline, and drops zero-width spaces', async () => {
    const part = await read(`${long}<p>last\u200b word\ufeff</p>`, { offset: 60 })
    expect(part.outline).toBeUndefined()
    expect(part.next).toBeNull()
    expect(part.text.endsWith('last word')).toBe(true)
  })
})
