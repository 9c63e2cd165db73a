import { generateDts } from '../codegen/dts'
import { writeIfChanged } from '../codegen/write'
import type { CompiledSkill } from '../compiler/compile'
import type { SkillModel } from '../compiler/model'

/** The d.ts of `virtual:site-skills` on disk (nothing at all when the options say `dts: false`). */
export interface DtsFile {
  /**
   * Makes the declarations of the skills valid when validation ended, while esbuild finishes the
   * browser tools (the compiler's `onValidated`): `write` uses them when its skills are the same.
   */
  prepare: (models: readonly SkillModel[]) => void
  /** Writes the declarations of `skills` unless the file already holds them; gives their text (none with `dts: false`). */
  write: (skills: readonly CompiledSkill[]) => Promise<string | undefined>
}

export function createDtsFile(path: string | false): DtsFile {
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
      if (!path) return undefined
      const same = made?.models.length === skills.length && skills.every((s, i) => s.model === made.models[i])
      const text = same ? made.text : generateDts(skills, path)
      await writeIfChanged(path, text)
      return text
    },
  }
}
