/** The package's names and ids, shared by the compiler, codegen, the plugin and the CLI. */
/** The public id of the generated module. */
export const VIRTUAL_ID = 'virtual:site-skills'
/** The public ids of all generated modules: `virtual:site-skills` and `virtual:site-skills/...`. */
export const VIRTUAL_ID_RE = /^virtual:site-skills(?:\/|$)/
/** Rollup-style resolved id (the NUL byte keeps other plugins away). */
export const RESOLVED_ID = `\0${VIRTUAL_ID}`
/** Exactly the main module's public id. */
export const MAIN_ID_RE = /^virtual:site-skills$/
/** Per-skill chunks: `virtual:site-skills/skill/<id>`. */
export const SKILL_ID_PREFIX = `${VIRTUAL_ID}/skill/`
export const RESOLVED_SKILL_PREFIX = `\0${SKILL_ID_PREFIX}`
/** Chunks of several skills (builds with many skills): `virtual:site-skills/group/<n>`. */
export const GROUP_ID_PREFIX = `${VIRTUAL_ID}/group/`
export const RESOLVED_GROUP_PREFIX = `\0${GROUP_ID_PREFIX}`
/** Public ids of the lazy chunks, per skill or per group. */
export const CHUNK_ID_RE = /^virtual:site-skills\/(?:skill|group)\//
/** Every generated module's resolved id: the main module and the lazy chunks. */
export const GENERATED_ID_RE = /^\0virtual:site-skills(?:\/(?:skill|group)\/|$)/
/** What generated code imports its behaviour from. */
export const RUNTIME_ID = 'unplugin-site-skills/runtime'
export const RUNTIME_ID_RE = /^unplugin-site-skills\/runtime$/
/** Every id the plugin resolves: a generated module's public or resolved id, and the runtime. */
export const RESOLVABLE_ID_RE = /^(?:\0?virtual:site-skills(?:\/|$)|unplugin-site-skills\/runtime$)/
export const DEFAULT_DTS = 'site-skills.d.ts'
export const DEFAULT_ROOT = 'learnings'
export const PLUGIN_NAME = 'unplugin-site-skills'
/**
 * `DEBUG=site-skills` (or `*`, as the debug package reads it): what the plugin and the MCP server print on stderr when
 * asked.
 */
export const DEBUG_RE = /(?:^|,)\s*(?:site-skills|\*)\s*(?:,|$)/
export { LOG_PREFIX } from '../runtime/internal'
