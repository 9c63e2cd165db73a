import { type FSWatcher, watch } from 'node:fs'
import { stat } from 'node:fs/promises'
import { pathToFileURL } from 'node:url'
import { SiteToolError } from '../../runtime/errors'
import { type SiteSkills, createSiteSkills } from '../../runtime/registry'
import type { ArgsValidator, NodeToolFunction, SkillChunk } from '../../runtime/types'
import { createRegistryData } from '../core/codegen/meta'
import { generateArgsValidator } from '../core/codegen/validator'
import { type CompileResult, type CompiledSkill, createCompiler } from '../core/compiler'
import type { SkillModel } from '../core/model'
import { compileNodeTool, fileVersion } from './node-tools'
import { notesOf } from '../core/notes'

/** A compile of one set of roots, and what is built on it. */
export interface SessionState {
  result: CompileResult
  api: SiteSkills
  models: Map<string, SkillModel>
}

/** One set of roots, compiled once and again only after a file under them changed. */
export interface Session {
  /** The current compile result and runtime API (recompiled when something changed). */
  current: () => Promise<SessionState>
  close: () => void
}

const validatorCache = new Map<string, ArgsValidator>()

function validatorFor(source: string): ArgsValidator {
  let fn = validatorCache.get(source)
  if (!fn) {
    fn = new Function(`return ${source}`)() as ArgsValidator
    validatorCache.set(source, fn)
  }
  return fn
}

/** Imports a Node tool; the version query changes only with its content, so a change is imported once. */
async function importNodeTool(siteId: string, tool: string, absPath: string, callable: string): Promise<NodeToolFunction> {
  const file = await compileNodeTool(absPath)
  const mod = (await import(`${pathToFileURL(file).href}?v=${await fileVersion(absPath)}`)) as Record<string, unknown>
  const fn = mod[callable]
  if (typeof fn !== 'function') throw new SiteToolError('unavailable', `callable ${JSON.stringify(callable)} is not an exported function`, { siteId, tool })
  return fn as NodeToolFunction
}

function chunkLoader(skill: CompiledSkill): () => Promise<SkillChunk> {
  return async () => {
    const { model, browser } = skill
    const nodeTools: SkillChunk['nodeTools'] = {}
    const validators: SkillChunk['validators'] = {}
    for (const tool of model.tools) {
      validators[tool.name] = validatorFor(generateArgsValidator(tool.args))
      if (tool.kind !== 'node') continue
      let loaded: Promise<NodeToolFunction> | undefined
      nodeTools[tool.name] = () => (loaded ??= importNodeTool(model.id, tool.name, tool.absPath, tool.callable!))
    }
    return { notes: notesOf(model), nodeTools, browserTools: browser, validators }
  }
}

function createApi(result: CompileResult): SiteSkills {
  const loaders = Object.fromEntries(result.skills.map((s) => [s.model.id, chunkLoader(s)]))
  return createSiteSkills(createRegistryData(result.skills), loaders)
}

/** Lets pending file-system events reach their watchers before the dirty flag is read. */
async function flushWatchEvents(root: string): Promise<void> {
  await stat(root).catch(() => undefined)
  await new Promise((resolve) => setImmediate(resolve))
}

export function createSession(roots: string[], compat?: 'ego-lite'): Session {
  const compiler = createCompiler({ roots, compat })
  let dirty = true
  let unwatched = false
  let pending: Promise<SessionState> | undefined
  let state: SessionState | undefined
  const watchers: FSWatcher[] = []

  function startWatching(): void {
    for (const root of roots) {
      try {
        const watcher = watch(root, { recursive: true }, () => {
          dirty = true
        })
        watcher.on('error', () => {
          dirty = true
        })
        watcher.unref()
        watchers.push(watcher)
      } catch {
        // A missing root is watched again on the next compile.
      }
    }
  }

  async function refresh() {
    dirty = false
    if (watchers.length < roots.length) {
      for (const w of watchers.splice(0)) w.close()
      startWatching()
      // A root that cannot be watched (missing) is looked at on every call.
      unwatched = watchers.length < roots.length
    }
    const result = await compiler.compile()
    state = { result, api: createApi(result), models: new Map(result.skills.map((s) => [s.model.id, s.model])) }
    return state
  }

  return {
    async current() {
      await flushWatchEvents(roots[0]!)
      if (!dirty && !unwatched && state) return state
      pending ??= refresh().finally(() => {
        pending = undefined
      })
      return pending
    },
    close() {
      for (const w of watchers.splice(0)) w.close()
    },
  }
}
