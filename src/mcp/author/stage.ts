import { randomBytes } from 'node:crypto'
import { existsSync, mkdirSync, realpathSync, renameSync, rmSync } from 'node:fs'
import { basename, dirname, join } from 'node:path'
import type { SiteSkills } from '../../../runtime/index'
import type { Compat } from '../../compiler/compat'
import type { CompileResult } from '../../compiler/compile'
import type { Diagnostic } from '../../compiler/diagnostics/catalog'
import { isInside } from '../../compiler/fs/paths'
import { isWriteFailure, type WriteFailure, writeFileInside } from '../../compiler/fs/write-inside'
import { invalidSkill } from '../../nobuild/invalid'
import { createSkillsApi } from '../../session/session'
import { createBudgetedCompiler } from '../../tokens/budget'
import { copySkill } from './copy'
import { type Grants, sandboxedTools } from './sandbox/sandboxed-tools'
import { newStageRoot, removeStage } from './stage-area'

/** One file of a skill to write: its path inside the skill folder and its whole text. */
export interface Change {
  rel: string
  data: string
}

/**
 * A copy of one skill in a stage folder of the writable root (`.site-skills-stage/<pid>-<random>/`,
 * a root of its own): changes are made and checked there, and only a copy that passed is written to
 * the real folder. Its `.scratch` folder is the one place its examples may write.
 */
export interface Stage {
  root: string
  skillDir: string
  /** Writes changes into the copy by the rules of writes to a skill; the first refusal, if any. */
  apply: (changes: readonly Change[]) => WriteFailure | undefined
  /** Compiles the copy; its Node tools run sandboxed, from the copy. */
  compile: (compat?: Compat) => Promise<StagedCompile>
  /** The grants of a sandboxed run of the copy's tools. */
  grants: Grants
  /** A text of the copy with the copy's folder named as the real one. */
  unstage: (text: string) => string
  remove: () => void
}

export interface StagedCompile {
  result: CompileResult
  api: SiteSkills
  /** The skill's findings, sorted (errors and warnings). */
  diagnostics: Diagnostic[]
}

/**
 * Stages `siteId` below the writable root `dir` (its real path), copied from `from` (a skill's real
 * folder) by the rules of copySkill, or empty for a new skill.
 */
export function stageSkill(dir: string, siteId: string, from: string | undefined): Stage {
  const root = newStageRoot(dir)
  const skillDir = join(root, siteId)
  const scratch = join(root, '.scratch')
  try {
    mkdirSync(skillDir)
    mkdirSync(scratch)
    if (from) copySkill(from, skillDir)
  } catch (error) {
    removeStage(root)
    throw error
  }
  const grants: Grants = { skillDir, root: dir, scratch }
  const shown = from ?? join(dir, siteId)
  return {
    root,
    skillDir,
    grants,
    apply(changes) {
      for (const change of changes) {
        const written = writeFileInside(skillDir, change.rel, change.data, siteId)
        if (isWriteFailure(written)) return written
      }
      return undefined
    },
    async compile(compat) {
      const compiler = createBudgetedCompiler({ roots: [root], compat })
      const result = await compiler.compile()
      const diagnostics = result.diagnostics.filter((d) => d.siteId === siteId)
      const api = createSkillsApi(compiler, result.skills, { invalidSkill, loadNodeTool: sandboxedTools(grants) })
      return { result, api, diagnostics }
    },
    unstage: (text) => text.split(skillDir).join(shown).split(root).join(dir),
    remove: () => removeStage(root),
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
