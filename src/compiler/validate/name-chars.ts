import type { NameCharacter } from '../diagnostics/messages'
import { type FolderValidation, reportAt } from './folder-validation'
import { TOOL_KINDS } from './schema'
import { isRecord } from '../../../runtime/internal'

/**
 * Characters no skill id or tool name may hold, by what they are: control and format characters
 * (NUL, newlines, bidirectional overrides, zero-width marks: invisible in a listing, and two names
 * look alike), line and paragraph separators (U+2028, U+2029: they end a line of JavaScript, so a
 * name that reached a `//` comment of generated code would go on as code), and lone surrogates
 * (no character at all: they have no UTF-8 form, and URL encoding throws on them). Everything
 * else the original accepts (spaces, quotes, any other Unicode) stays accepted: names are encoded
 * for each place they go (see runtime/page-code.ts and src/codegen/literal.ts).
 */
const REFUSED_RE = /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}\p{Cs}]/u
const SEPARATOR_RE = /[\p{Zl}\p{Zp}]/u
const SURROGATE_RE = /\p{Cs}/u

const codePoint = (char: string) => `U+${char.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}`

/** The first refused character of a name, as `U+XXXX` with what it is, or undefined. */
function refusedCharacter(name: string): NameCharacter | undefined {
  const match = REFUSED_RE.exec(name)
  if (!match) return undefined
  const char = match[0]
  const what = SEPARATOR_RE.test(char) ? 'separator' : SURROGATE_RE.test(char) ? 'surrogate' : 'invisible'
  return { char: codePoint(char), what }
}

/**
 * Skill ids and tool names become file paths, module ids, object keys, source URLs and model tool
 * names. Reports those with a refused character (see REFUSED_RE); returns the `map\0name` keys of
 * tools that must not be checked further.
 */
export function checkNameCharacters(check: FolderValidation, manifest: Record<string, unknown>): string[] {
  const id = check.folder.id
  const inId = refusedCharacter(id)
  if (inId) {
    const at = Object.hasOwn(manifest, 'id') ? ['id'] : []
    reportAt(check, at, { code: 'id-invalid', data: { id, ...inId } })
  }
  const bad: string[] = []
  for (const mapKey of TOOL_KINDS) {
    const map = manifest[mapKey]
    if (!isRecord(map)) continue
    for (const name of Object.keys(map)) {
      const found = refusedCharacter(name)
      if (!found) continue
      reportAt(check, [mapKey, name], {
        code: 'tool-name',
        data: { problem: 'invisible', map: mapKey, name, ...found },
      })
      bad.push(`${mapKey}\0${name}`)
    }
  }
  return bad
}
