import { readFile } from 'node:fs/promises'
import { join, resolve } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { callBrowserTool } from '../../runtime/browser'
import { type LaunchedBrowser, launchBrowser } from '../../runtime/launch'
import type { BrowserToolCode } from '../../runtime/types'
import { createBrowserBundler } from '../../src/compiler/bundle'
import { contractBreaks, type Manifest, mismatches, readManifest, showFixture } from './page-fixtures'

// The shipped real-site skills, run on saved real pages of their sites: every example of every
// browser tool goes through the real runtime call (domain guard, argument copy, timeout) in
// headless Chromium, and its result must match the example's `expect` and the tool's `returns`.
const ROOT = resolve(__dirname, '../../learnings')
const SITES = ['github', 'hacker-news', 'mdn', 'wikipedia']

interface Case {
  siteId: string
  tool: string
  index: number
}

const manifests = new Map<string, Manifest>()
const code = new Map<string, BrowserToolCode>()
const cases: Case[] = []
let browser: LaunchedBrowser

async function compile(siteId: string, manifest: Manifest): Promise<void> {
  const realDir = join(ROOT, siteId)
  const requests = await Promise.all(
    Object.entries(manifest.browserTools).map(async ([tool, spec]) => {
      const absPath = join(realDir, spec.path)
      const module = /^\s*(import|export)\b/m.test(await readFile(absPath, 'utf8'))
      return { siteId, tool, absPath, module, realDir }
    }),
  )
  const results = await createBrowserBundler({ minify: true }).bundle(requests)
  for (const request of requests) {
    const compiled = results.get(request)?.code
    if (!compiled) throw new Error(`${siteId}/${request.tool} did not compile`)
    code.set(`${siteId}/${request.tool}`, compiled)
  }
}

for (const siteId of SITES) {
  const manifest = JSON.parse(await readFile(join(ROOT, siteId, 'manifest.json'), 'utf8')) as Manifest
  for (const [tool, spec] of Object.entries(manifest.browserTools)) {
    for (const index of (spec.examples ?? []).keys()) cases.push({ siteId, tool, index })
  }
}

beforeAll(async () => {
  browser = await launchBrowser()
  for (const siteId of SITES) {
    const manifest = await readManifest(ROOT, siteId)
    manifests.set(siteId, manifest)
    await compile(siteId, manifest)
  }
})

afterAll(async () => {
  await browser?.close()
})

describe('real-site skills on saved real pages', () => {
  it('gives every browser tool at least two examples on saved pages', () => {
    for (const siteId of SITES) {
      for (const tool of Object.keys(manifests.get(siteId)!.browserTools)) {
        const count = cases.filter((c) => c.siteId === siteId && c.tool === tool).length
        expect(count, `${siteId}/${tool}`).toBeGreaterThanOrEqual(2)
      }
    }
  })

  it.each(cases)('$siteId/$tool example $index', async ({ siteId, tool, index }) => {
    const manifest = manifests.get(siteId)!
    const spec = manifest.browserTools[tool]!
    const example = spec.examples![index]!
    const page = await browser.newPage('about:blank')
    try {
      await showFixture(page.client, example.url, join(ROOT, siteId, example.fixture))
      const result = await callBrowserTool(page.client, {
        siteId,
        tool,
        code: code.get(`${siteId}/${tool}`)!,
        args: example.args,
        domains: manifest.domains,
        timeoutMs: 15_000,
      })
      expect(contractBreaks(result, spec.returns)).toEqual([])
      expect(mismatches(result, example.expect)).toEqual([])
    } finally {
      await page.close()
    }
  })
})
