import { createRequire } from 'node:module'
import type { BrowserToolCode } from '../../../runtime/index'
import { ownManifest } from '../../own/version'
import type { Diagnostic } from '../diagnostics/catalog'
import type { StampLog } from '../fs/stamp'
import type { SkillFolder, SkillRecord } from '../model'
import { type InputContext, type SkillInputs, type StoredInputs, sameInputs, takeInputs } from './inputs'
import { type StoredSkill, restoreRecord, storeRecord } from './records'
import { type CacheStore, cacheIgnored, createCacheStore } from './store'

/**
 * A skill as the compiler keeps it: its record, its compiled browser tools, and the digest of its inputs once known.
 */
export interface CachedSkill {
  folder: SkillFolder
  record: SkillRecord
  browser: Record<string, BrowserToolCode>
  /** Its inputs by content (see takeInputs), once taken. */
  inputs?: StoredInputs
}

export interface PersistentCache {
  readonly store: CacheStore
  /** What the output depends on besides the skills (see cacheKey). */
  readonly key: string
  /**
   * The skills of these folders that an earlier process compiled from the same inputs (read from
   * the file on the first call only: later compiles have the compiler's own cache).
   */
  lookup: (folders: readonly SkillFolder[], keyOf: (f: SkillFolder) => string) => (CachedSkill | undefined)[]
  /** Whether a skill taken from the file still has the same inputs (the compiler's cache asks on each compile). */
  unchanged: (skill: CachedSkill) => boolean
  /**
   * Writes every skill of a compile (soon, off the compile's path: see `flush`). `stamps`: the
   * compile's log, so that a file changed since it was read keeps its skill out of the file.
   */
  save: (skills: readonly CachedSkill[], keyOf: (f: SkillFolder) => string, stamps: StampLog) => void
  /** Waits for the last save. */
  flush: () => Promise<void>
  /**
   * The warning `cache-ignored` when the file the lookup read failed the file guard's inspection
   * (a FIFO, a symlink, another user's file), once: the compile that read it reports it.
   */
  takeFinding: () => Diagnostic | undefined
}

/** What the compiler's output depends on besides the skills' inputs. */
export function cacheKey(options: Record<string, unknown>): string {
  return JSON.stringify({
    package: ownManifest().version,
    // Read from its package.json: importing esbuild's API only to name its version costs a build that compiles nothing.
    esbuild: (createRequire(import.meta.url)('esbuild/package.json') as { version: string }).version,
    node: process.version,
    platform: process.platform,
    options,
  })
}

/**
 * Only skills that are served go in the file: a failing one is checked again (what it lacked may have been installed
 * since).
 */
const storable = (s: CachedSkill) => s.record.model !== undefined

function inputsOf(record: SkillRecord): SkillInputs {
  return {
    realDir: record.folder.realDir,
    files: record.files,
    resolves: record.tools.some((t) => t.kind === 'browser' && t.module === true),
  }
}

export function createPersistentCache(dir: string, key: string, project: string): PersistentCache {
  const store = createCacheStore(dir, key)
  let stored: Map<string, StoredSkill> | undefined
  /** Folder keys and digests the file holds now (so an unchanged compile writes nothing). */
  let onDisk = new Map<string, string>()
  let pending: Promise<void> = Promise.resolve()
  const context = (): InputContext => ({ project, chains: new Map() })

  function lookup(folders: readonly SkillFolder[], keyOf: (f: SkillFolder) => string) {
    if (stored === undefined) {
      stored = store.read()
      onDisk = new Map([...stored].map(([k, s]) => [k, s.inputs.digest]))
    } else return folders.map(() => undefined)
    const found = stored
    stored = new Map()
    const pass = context()
    return folders.map((folder): CachedSkill | undefined => {
      const entry = found.get(keyOf(folder))
      if (!entry || entry.record.folder.symlinked !== folder.symlinked) return undefined
      const record = restoreRecord(entry.record)
      if (!sameInputs(entry.inputs, inputsOf(record), pass)) return undefined
      return { folder, record, browser: entry.browser, inputs: entry.inputs }
    })
  }

  function write(skills: readonly CachedSkill[], keyOf: (f: SkillFolder) => string, stamps: StampLog): void {
    const pass = context()
    const kept: CachedSkill[] = []
    for (const skill of skills) {
      if (!storable(skill)) continue
      skill.inputs ??= takeInputs(inputsOf(skill.record), pass, stamps)
      if (skill.inputs !== undefined) kept.push(skill)
    }
    const next = new Map(kept.map((s) => [keyOf(s.folder), s.inputs!.digest]))
    // The file holds these skills already (a build with nothing changed writes nothing).
    if (next.size === onDisk.size && [...next].every(([k, d]) => onDisk.get(k) === d)) return
    const out = kept.map(
      (s): StoredSkill => ({
        key: keyOf(s.folder),
        inputs: s.inputs!,
        record: storeRecord(s.record),
        browser: s.browser,
      }),
    )
    if (store.write(out)) onDisk = next
  }

  function save(skills: readonly CachedSkill[], keyOf: (f: SkillFolder) => string, stamps: StampLog): void {
    // After the compile's caller has its result: the bundler goes on while the file is written.
    pending = pending.then(
      () =>
        new Promise<void>((done) =>
          setImmediate(() => {
            write(skills, keyOf, stamps)
            done()
          }),
        ),
    )
  }

  const unchanged = (skill: CachedSkill) =>
    skill.inputs !== undefined && sameInputs(skill.inputs, inputsOf(skill.record), context())
  let reported = false
  function takeFinding(): Diagnostic | undefined {
    if (reported || store.untrusted === undefined) return undefined
    reported = true
    return cacheIgnored(project, store.file, store.untrusted)
  }
  return { store, key, lookup, unchanged, save, flush: () => pending, takeFinding }
}
