import { type SkillCheck, reportAt } from './context'
import { TOOL_KINDS } from './schema'

/** Control (Cc) and format (Cf) characters: NUL, newlines, bidirectional overrides, zero-width marks. */
const INVISIBLE_RE = /[\p{Cc}\p{Cf}]/u
const INVISIBLE_ALL_RE = /[\p{Cc}\p{Cf}]/gu

const VISIBLE_HINT = 'Use visible characters only: snake_case names such as "search_users".'

const codePoint = (char: string) => `U+${char.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}`

/** The first control or format character of a name, as `U+XXXX`, or undefined. */
function invisibleCharacter(name: string): string | undefined {
  const match = INVISIBLE_RE.exec(name)
  return match ? codePoint(match[0]) : undefined
}

/** A name quoted for a message, control and format characters escaped so that they show. */
function quoteName(name: string): string {
  return JSON.stringify(name).replace(INVISIBLE_ALL_RE, (c) => `\\u${c.codePointAt(0)!.toString(16).padStart(4, '0')}`)
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
    const message = `skill id ${quoteName(id)} (its folder name) contains ${inId}, a control or format character`
    reportAt(check, Object.hasOwn(manifest, 'id') ? ['id'] : [], 'id-invalid', message)
  }
  const bad: string[] = []
  for (const mapKey of TOOL_KINDS) {
    const map = manifest[mapKey]
    if (!isObject(map)) continue
    for (const name of Object.keys(map)) {
      const found = invisibleCharacter(name)
      if (!found) continue
      const message = `${mapKey} contains tool name ${quoteName(name)} with ${found}, a control or format character`
      reportAt(check, [mapKey, name], 'tool-name', message, VISIBLE_HINT)
      bad.push(`${mapKey}\0${name}`)
    }
  }
  return bad
}
