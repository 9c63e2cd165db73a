import { type SkillCheck, reportAt } from './context'
import { TOOL_KINDS } from './schema'

/** Control (Cc) and format (Cf) characters: NUL, newlines, bidirectional overrides, zero-width marks. */
const INVISIBLE_RE = /[\p{Cc}\p{Cf}]/u

const codePoint = (char: string) => `U+${char.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}`

/** The first control or format character of a name, as `U+XXXX`, or undefined. */
function invisibleCharacter(name: string): string | undefined {
  const match = INVISIBLE_RE.exec(name)
  return match ? codePoint(match[0]) : undefined
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

/**
 * Skill ids and tool names become file paths, module ids, object keys and model tool names: a
 * control or format character in one is invisible in a listing and can make two names look
 * alike. Reports them; returns the `map\0name` keys of tools that must not be checked further.
 */
export function checkNameCharacters(check: SkillCheck, manifest: Record<string, unknown>): string[] {
  const id = check.folder.id
  const inId = invisibleCharacter(id)
  if (inId) {
    const at = Object.hasOwn(manifest, 'id') ? ['id'] : []
    reportAt(check, at, { code: 'id-invalid', data: { id, char: inId } })
  }
  const bad: string[] = []
  for (const mapKey of TOOL_KINDS) {
    const map = manifest[mapKey]
    if (!isObject(map)) continue
    for (const name of Object.keys(map)) {
      const found = invisibleCharacter(name)
      if (!found) continue
      reportAt(check, [mapKey, name], {
        code: 'tool-name',
        data: { problem: 'invisible', map: mapKey, name, char: found },
      })
      bad.push(`${mapKey}\0${name}`)
    }
  }
  return bad
}
