// The commit-msg hook (.githooks/commit-msg): a commit's subject, its first line, is at most 72
// characters (CONTRIBUTING.md, "Commits"). Lines git adds as comments do not count; a subject that
// `git commit --fixup`/`--squash` writes is the one it names, so it passes.
import { readFileSync } from 'node:fs'

const MAX = 72
const AUTOSQUASH_RE = /^(fixup|squash|amend)! /

const file = process.argv[2]
if (!file) {
  console.error('usage: node scripts/commit-msg.mjs MESSAGE_FILE')
  process.exit(2)
}
const subject = readFileSync(file, 'utf8')
  .split('\n')
  .find((line) => !line.startsWith('#') && line.trim() !== '')
const length = [...(subject ?? '')].length
if (subject !== undefined && length > MAX && !AUTOSQUASH_RE.test(subject)) {
  console.error(`commit-msg: the subject is ${length} characters; the limit is ${MAX}:`)
  console.error(`  ${subject}`)
  console.error(`  ${' '.repeat(MAX)}^ cut here; the rest goes in the body, after a blank line.`)
  process.exit(1)
}
