import { existsSync } from 'node:fs'
import { join } from 'node:path'
import type { CallToolResult } from '@modelcontextprotocol/server'
import type { AuthorContext } from './author-context'
import { locateSkill } from './skill-place'
import { jsonResult, Refusal, shownDiagnostic, textArg } from './author-results'
import { keepStaged } from './cross'
import { commitChanges, stageSkill } from './stage'
import { FILE_LIMITS, isReadFailure, readRegularFile } from '../../compiler/fs/files'

/** A staged file's text through the file guard; a FIFO, device or huge file is a refusal, never a hang. */
function guardedText(path: string, limit: number, shown: string): string {
  const read = readRegularFile(path, limit)
  if (isReadFailure(read)) throw new Refusal('file-unreadable', `${shown} ${read.message}`)
  return read.toString('utf8')
}

/** `site_skills_write_note`: notes/FILE written or appended to, listed in the manifest, checked on a copy first. */
export async function writeNote(
  context: AuthorContext,
  args: Record<string, unknown> | undefined,
): Promise<CallToolResult> {
  const siteId = textArg(args, 'site')
  const file = textArg(args, 'file')
  const text = textArg(args, 'text')
  if (!file.endsWith('.md')) throw new Refusal('invalid-args', `"file" must end in .md, not ${JSON.stringify(file)}`)
  const place = locateSkill(context.dir, context.roots, siteId)
  if (!place.exists)
    throw new Refusal(
      'skill-not-found',
      `no skill ${siteId} in ${context.dir}: site_skills_snapshot makes one from your tab`,
    )
  const rel = `notes/${file}`
  return context.locked(siteId, async () => {
    const stage = stageSkill(context.dir, siteId, place.real)
    try {
      const path = join(stage.skillDir, rel)
      const before =
        args?.append === true && existsSync(path) ? guardedText(path, FILE_LIMITS.note, `${siteId}/${rel}`) : ''
      const body = text.endsWith('\n') ? text : `${text}\n`
      const note = before ? `${before}${before.endsWith('\n') ? '' : '\n'}\n${body}` : body
      const manifest = JSON.parse(
        guardedText(join(stage.skillDir, 'manifest.json'), FILE_LIMITS.manifest, `${siteId}/manifest.json`),
      ) as {
        notes?: unknown
      }
      const notes = Array.isArray(manifest.notes) ? manifest.notes : []
      const listed = notes.includes(rel)
      const changes = [
        { rel, data: note },
        ...(listed
          ? []
          : [{ rel: 'manifest.json', data: `${JSON.stringify({ ...manifest, notes: [...notes, rel] }, null, 2)}\n` }]),
      ]
      const refused = stage.apply(changes)
      if (refused) throw new Refusal(refused.code, refused.message)
      const compiled = await stage.compile(context.compat)
      const diagnostics = compiled.diagnostics.map(shownDiagnostic)
      const refuse = (why: string, all = diagnostics) => jsonResult({ kept: false, diagnostics: all, why }, true)
      if (diagnostics.some((d) => d.severity === 'error'))
        return refuse('the skill does not validate: nothing was written')
      const kept = await keepStaged(context, { records: compiled.result.records, siteId, real: place.real }, () => {
        const committed = commitChanges(context.dir, siteId, true, changes)
        if (committed) throw new Refusal(committed.code, committed.message)
      })
      const all = [...diagnostics, ...kept.findings]
      if (!kept.kept) return refuse('the skills of every root together do not validate: nothing was written', all)
      return jsonResult({ kept: true, file: `${siteId}/${rel}`, characters: note.length, diagnostics: all })
    } finally {
      stage.remove()
    }
  })
}
