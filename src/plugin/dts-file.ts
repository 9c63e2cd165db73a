import { relative } from 'node:path'
import { generateDts } from '../codegen/dts'
import type { CompiledSkill } from '../compiler/compile'
import { type Diagnostic, createDiagnostic } from '../compiler/diagnostics/catalog'
import { writeGeneratedFile } from '../compiler/fs/generated'
import { toPosix } from '../compiler/fs/paths'
import { isWriteFailure } from '../compiler/fs/write-inside'
import type { SkillModel } from '../compiler/model'

/** What a write of the d.ts gave: its text when the file holds it, else the warning that it was not written. */
interface DtsWrite {
  text?: string
  warning?: Diagnostic
}

/** The d.ts of `virtual:site-skills` on disk (nothing at all when the options say `dts: false`). */
export interface DtsFile {
  /**
   * Makes the declarations of the skills valid when validation ended, while esbuild finishes the
   * browser tools (the compiler's `onValidated`): `write` uses them when its skills are the same.
   */
  prepare: (models: readonly SkillModel[]) => void
  /**
   * Writes the declarations of `skills` unless the file already holds them, through the file guard:
   * a symlink, FIFO or device at the path is left alone, with the warning `dts-unwritten`.
   */
  write: (skills: readonly CompiledSkill[]) => Promise<DtsWrite>
}

/** The d.ts at `path` (false: none), for the project at `project` (warnings name the file relative to it). */
export function createDtsFile(path: string | false, project: string): DtsFile {
  let early: { models: readonly SkillModel[]; text: string } | undefined
  return {
    prepare(models) {
      if (path)
        early = {
          models,
          text: generateDts(
            models.map((model) => ({ model })),
            path,
          ),
        }
    },
    async write(skills) {
      const made = early
      early = undefined
      if (!path) return {}
      const same = made?.models.length === skills.length && skills.every((s, i) => s.model === made.models[i])
      const text = same ? made.text : generateDts(skills, path)
      const file = toPosix(relative(project, path))
      const written = writeGeneratedFile(path, text, file)
      if (!isWriteFailure(written)) return { text }
      // The file system refused (a file where its folder should be, no permission): the build fails,
      // as it always has. Something not a regular file at the path is left alone, with a warning.
      if (written.code === 'file-unwritable') throw new Error(`site-skills: ${written.message}`)
      const data = { file, reason: written.message }
      return { warning: createDiagnostic({ id: '', root: project }, file, { code: 'dts-unwritten', data }) }
    },
  }
}
