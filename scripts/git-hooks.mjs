// npm's `postprepare` (through `npm run githooks`): in a git checkout of this repository, points git at the hooks in .githooks
// (core.hooksPath), so that `npm ci` or `npm install` is all a contributor runs. Anywhere else (a
// tarball, an unpacked package, no git installed) it does nothing and never fails the install.
import { execFileSync } from 'node:child_process'
import { existsSync } from 'node:fs'

if (existsSync('.git') && existsSync('.githooks/commit-msg')) {
  try {
    execFileSync('git', ['config', 'core.hooksPath', '.githooks'], { stdio: 'ignore' })
  } catch {
    // no git on PATH, or not a repository after all: the hooks are a convenience, not a condition
  }
}
