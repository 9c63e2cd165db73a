import { randomBytes } from 'node:crypto'
import { cpSync, existsSync, mkdirSync, mkdtempSync, realpathSync, renameSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { basename, dirname, join } from 'node:path'
import type { SiteSkills } from '../../../runtime/index'
import type { Compat } from '../../compiler/compat'
import { type CompileResult, createCompiler } from '../../compiler/compile'
import type { Diagnostic } from '../../compiler/diagnostics/catalog'
import { isInside } from '../../compiler/fs/paths'
import { isWriteFailure, type WriteFailure, writeFileInside } from '../../compiler/fs/write-inside'
import { createSkillsApi } from '../../nobuild/session'
import { checkTokenBudgets } from '../../tokens/budget'

/** One file of a skill to write: its path inside the skill folder and its whole text. */
export interface Change {
  rel: string
  data: string
}

/**
 * A temporary copy of one skill, in a root of its own outside the roots: changes are made and
 * checked there, and only a copy that passed is written to the real folder.
 */
export interface Stage {
  root: string
  skillDir: string
  /** Writes changes into the copy by the rules of writes to a skill; the first refusal, if any. */
  apply: (changes: readonly Change[]) => WriteFailure | undefined
  compile: (compat?: Compat) => Promise<StagedCompile>
  /** A text of the copy with the copy's folder named as the real one. */
  unstage: (text: string) => string
  remove: () => void
}

interface StagedCompile {
  result: CompileResult
  api: SiteSkills
  /** The skill's findings, sorted (errors and warnings). */
  diagnostics: Diagnostic[]
}

/** Copies `dir/siteId` (when it exists) to a temporary root. */
export function stageSkill(dir: string, siteId: string, exists: boolean): Stage {
  const root = mkdtempSync(join(tmpdir(), 'site-skills-stage-'))
  const skillDir = join(root, siteId)
  if (exists) cpSync(join(dir, siteId), skillDir, { recursive: true, dereference: true })
  else mkdirSync(skillDir)
  const realRoot = realpathSync(root)
  return {
    root,
    skillDir,
    apply(changes) {
      for (const change of changes) {
        const written = writeFileInside(join(realRoot, siteId), change.rel, change.data, siteId)
        if (isWriteFailure(written)) return written
      }
      return undefined
    },
    async compile(compat) {
      const compiler = createCompiler({ roots: [root], compat })
      const result = await checkTokenBudgets(await compiler.compile())
      const diagnostics = result.diagnostics.filter((d) => d.siteId === siteId)
      return { result, api: createSkillsApi(compiler, result.skills), diagnostics }
    },
    unstage: (text) => text.split(realRoot).join(dir).split(root).join(dir),
    remove: () => rmSync(root, { recursive: true, force: true }),
  }
}

const suffix = () => `.site-skills-${randomBytes(6).toString('hex')}`

/**
 * Writes checked changes to the real skill folder: each file goes to a temporary name beside it
 * (with the write-inside rules) and is renamed over the old one, so that a reader sees the old
 * file or the new one, never half of one. A new skill is written whole into a hidden folder of
 * the root (which discovery skips) and renamed into place.
 */
export function commitChanges(
  dir: string,
  siteId: string,
  exists: boolean,
  changes: readonly Change[],
): WriteFailure | undefined {
  if (!exists) {
    const hidden = `.${siteId}${suffix()}`
    const realDir = realpathSync(dir)
    for (const change of changes) {
      const written = writeFileInside(realDir, `${hidden}/${change.rel}`, change.data, '.')
      if (isWriteFailure(written)) {
        rmSync(join(realDir, hidden), { recursive: true, force: true })
        return written
      }
    }
    if (existsSync(join(realDir, siteId))) {
      rmSync(join(realDir, hidden), { recursive: true, force: true })
      return { code: 'file-unwritable', message: `${siteId} appeared meanwhile: nothing was written` }
    }
    renameSync(join(realDir, hidden), join(realDir, siteId))
    return undefined
  }
  const realSkill = realpathSync(join(dir, siteId))
  if (!isInside(realpathSync(dir), realSkill))
    return { code: 'path-escape', message: `${siteId} leads outside the root: nothing was written` }
  for (const change of changes) {
    const parts = change.rel.split('/')
    const temp = [...parts.slice(0, -1), `.${parts.at(-1)}${suffix()}`].join('/')
    const written = writeFileInside(realSkill, temp, change.data, siteId)
    if (isWriteFailure(written)) return written
    renameSync(written, join(dirname(written), basename(change.rel)))
  }
  return undefined
}
