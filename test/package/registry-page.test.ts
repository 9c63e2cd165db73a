import { existsSync, readFileSync, statSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { REPO_ROOT } from '../helpers/tmp'

interface Manifest {
  repository?: { type?: string; url?: string }
  homepage?: string
  bugs?: { url?: string }
}
const pkg = JSON.parse(readFileSync(join(REPO_ROOT, 'package.json'), 'utf8')) as Manifest
const README = readFileSync(join(REPO_ROOT, 'README.md'), 'utf8')

/** The repository's web address, from package.json's `repository.url` (`git+https://...git`). */
const repositoryPage = (): string => (pkg.repository?.url ?? '').replace(/^git\+/, '').replace(/\.git$/, '')

/** Every Markdown link target of README.md outside code: inline `[text](target)` and `[ref]: target`. */
function readmeLinks(): string[] {
  const prose = README.replace(/^```[\s\S]*?^```$/gm, '').replace(/`[^`\n]*`/g, '')
  const inline = [...prose.matchAll(/\]\(([^)\s]+)\)/g)].map((m) => m[1]!)
  const references = [...prose.matchAll(/^\[[^\]]+\]:\s*(\S+)/gm)].map((m) => m[1]!)
  return [...inline, ...references]
}

describe("the package's page on the npm registry (package.json and README.md as the tarball ships them)", () => {
  it('package.json names the repository, its home page and where to report bugs, on one GitHub repository', () => {
    expect(pkg.repository?.type).toBe('git')
    expect(pkg.repository?.url).toMatch(/^git\+https:\/\/github\.com\/[\w.-]+\/[\w.-]+\.git$/)
    const page = repositoryPage()
    expect(pkg.homepage).toBe(`${page}#readme`)
    expect(pkg.bugs?.url).toBe(`${page}/issues`)
  })

  it('every README link works away from the repository: absolute, and a link into the repository names a file or folder that exists', () => {
    const links = readmeLinks()
    expect(links.length).toBeGreaterThanOrEqual(3)
    const relative = links.filter((link) => !/^(https?:|mailto:|#)/.test(link))
    expect(relative, 'relative links resolve to nothing on the registry page').toEqual([])
    const page = repositoryPage()
    const inside = links.filter((link) => link.startsWith(`${page}/`) && !link.startsWith(`${page}/issues`))
    expect(inside.length).toBeGreaterThanOrEqual(3)
    for (const link of inside) {
      const match = /^\/(blob|tree)\/main\/(.+)$/.exec(link.slice(page.length))
      expect(match, `${link}: expected ${page}/blob/main/FILE or /tree/main/FOLDER`).not.toBeNull()
      const path = join(REPO_ROOT, decodeURIComponent(match![2]!.replace(/#.*$/, '')))
      expect(existsSync(path), `${link}: ${path} does not exist`).toBe(true)
      expect(statSync(path).isDirectory(), `${link}: blob is a file, tree a folder`).toBe(match![1] === 'tree')
    }
  })
})
