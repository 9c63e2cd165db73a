import { urlMatchesDomains, isRecord } from '../../runtime/internal'
import { MANIFEST } from './discover/skills'
import { FILE_LIMITS, isReadFailure, readPlainInside } from './fs/files'
import type { SkillFolder } from './model'
import { modelName } from './validate/collisions'
import { checkDomain } from './validate/domains'
import { TOOL_KINDS } from './validate/schema'
import { readManifest } from './validate/skill'

/**
 * What a focused compile answers (the no-build API's first call): the skills a URL matches, or
 * the skill of one id. It checks those folders, and the earlier folders that can decide whether
 * they are valid, and nothing else.
 */
export type Focus = { url: string | URL } | { siteId: string }

/** What a folder's manifest says that other skills' validity depends on, read without checking it. */
interface Claims {
  /** The id as collisions compare ids (case and Unicode normalization folded). */
  idKey: string
  /** Normalized domain patterns, as the checks make them. */
  patterns: string[]
  /** Model-facing names of its tools. */
  names: string[]
}

/** A plain ASCII host whose last label is no number: `new URL()` would only lowercase it. */
const PLAIN_HOST_RE = /^[a-z0-9-]+(?:\.[a-z0-9-]+)*\.[a-z0-9-]*[a-z][a-z0-9-]*$|^[a-z0-9-]*[a-z][a-z0-9-]*$/i

/**
 * A domain entry's pattern as the checks would normalize it, or more: a plain host is only
 * lowercased (checkDomain, with `new URL()` and the public suffix list, is the slow part of
 * reading a thousand manifests), anything else goes through checkDomain.
 */
function patternOf(raw: string): string | undefined {
  const wildcard = raw.startsWith('*.')
  const base = (wildcard ? raw.slice(2) : raw).replace(/\.$/, '')
  if (PLAIN_HOST_RE.test(base)) return `${wildcard ? '*.' : ''}${base.toLowerCase()}`
  return checkDomain(raw).pattern
}

/** The manifest's value: parsed as plain JSON when it is a plain file, else read as the checks read it. */
async function manifestValue(folder: SkillFolder): Promise<unknown> {
  const direct = readPlainInside(folder.realDir, MANIFEST, FILE_LIMITS.manifest)
  if (direct && direct !== 'missing' && direct.read && !isReadFailure(direct.read)) {
    try {
      return JSON.parse(direct.read.toString('utf8').replace(/^\uFEFF/, ''))
    } catch {}
  }
  const read = await readManifest(folder)
  return Array.isArray(read) ? undefined : read.doc.value
}

/**
 * A folder's claims. A superset of what its checks would find: a pattern or a tool its checks
 * reject is still listed (that only checks one folder more). A manifest that cannot be read or
 * parsed claims nothing: its skill is invalid, and an invalid skill claims nothing either.
 */
async function claimsOf(folder: SkillFolder): Promise<Claims> {
  const claims: Claims = { idKey: folder.id.normalize('NFC').toLowerCase(), patterns: [], names: [] }
  const manifest = await manifestValue(folder)
  if (!isRecord(manifest)) return claims
  if (Array.isArray(manifest.domains)) {
    for (const raw of manifest.domains) {
      const pattern = typeof raw === 'string' && raw.trim() !== '' ? patternOf(raw) : undefined
      if (pattern) claims.patterns.push(pattern)
    }
  }
  for (const kind of TOOL_KINDS) {
    const tools = manifest[kind]
    if (isRecord(tools)) for (const name of Object.keys(tools)) claims.names.push(modelName(folder.id, name))
  }
  return claims
}

const shares = (a: readonly string[], b: readonly string[]) => a.some((x) => b.includes(x))

/**
 * The folders a focused compile checks, in folder order: those the focus names, and, for each of
 * them, every earlier folder that the cross-skill rules compare it with (the same id, a shared
 * domain pattern, a colliding model tool name), and theirs in turn. Those rules look only at
 * earlier folders, so each folder checked gets the same findings as in a compile of every folder.
 */
export async function focusFolders(folders: readonly SkillFolder[], focus: Focus): Promise<SkillFolder[]> {
  const claims = await Promise.all(folders.map(claimsOf))
  const named = (i: number) =>
    'siteId' in focus ? folders[i]!.id === focus.siteId : urlMatchesDomains(String(focus.url), claims[i]!.patterns)
  const wanted = new Set(folders.flatMap((_, i) => (named(i) ? [i] : [])))
  const todo = [...wanted]
  while (todo.length) {
    const i = todo.pop()!
    const c = claims[i]!
    for (let j = 0; j < i; j++) {
      const o = claims[j]!
      if (wanted.has(j)) continue
      if (o.idKey === c.idKey || shares(o.patterns, c.patterns) || shares(o.names, c.names)) {
        wanted.add(j)
        todo.push(j)
      }
    }
  }
  return folders.filter((_, i) => wanted.has(i))
}
