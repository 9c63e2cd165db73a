import { statSync } from 'node:fs'
import { isAbsolute, relative } from 'node:path'
import type { OnStartResult, PartialMessage, PluginBuild } from 'esbuild'
import type { UnpluginOptions } from 'unplugin'
import type { Diagnostic } from '../../compiler/diagnostics/catalog'
import { linesOf, readQuietly } from '../../compiler/diagnostics/report'
import { toPosix } from '../../compiler/fs/paths'
import { CHUNK_ID_RE, LOG_PREFIX, MAIN_ID_RE, PLUGIN_NAME, RESOLVED_ID, RUNTIME_ID, RUNTIME_ID_RE } from '../../ids'
import type { BuildError } from '../build-error'
import { type BuildWarning, type RootContext, UNAVAILABLE } from '../root-context'
import type { PluginContexts } from '../plugin-contexts'

/**
 * esbuild: the root is `absWorkingDir`, Node tools are left out of `platform: 'browser'`. The
 * skills compile in the build's `onStart`, which reports every diagnostic as an esbuild
 * message of its own (errors and warnings, each with its location, frame and hint).
 */
export function esbuildHooks(contexts: PluginContexts): Partial<UnpluginOptions> {
  return {
    esbuild: {
      // The main module is resolved in `resolveFiles`.
      onResolveFilter: CHUNK_ID_RE,
      setup(build) {
        const { absWorkingDir, platform } = build.initialOptions
        const ctx = contexts.use({ root: absWorkingDir ?? process.cwd(), nodeTools: platform !== 'browser' })
        resolveFiles(build, ctx)
        build.onStart(() => startBuild(ctx))
      },
    },
  }
}

/**
 * The files esbuild may be given to watch: esbuild reads each one (to see later whether it
 * changed), so a named pipe, a device or a socket among the skills' files (reported by validation)
 * would block or never end. Missing files stay: their creation is a change to notice.
 */
function watchableFiles(files: readonly string[]): string[] {
  return files.filter((file) => {
    const info = statSync(file, { throwIfNoEntry: false })
    return !info || info.isFile()
  })
}

/**
 * unplugin's esbuild adapter puts every id `resolveId` returns in the plugin's namespace, where
 * nothing loads real files: the runtime and the Node tools that generated modules import are
 * resolved here to plain files instead. The main module is resolved here too, with what esbuild
 * must watch: its resolution (unlike its load) succeeds with invalid skills, so a fix is noticed.
 */
function resolveFiles(build: PluginBuild, ctx: RootContext): void {
  build.onResolve({ filter: MAIN_ID_RE }, () => ({
    path: RESOLVED_ID,
    namespace: PLUGIN_NAME,
    watchDirs: ctx.watchDirs(),
    watchFiles: watchableFiles(ctx.watchFiles()),
  }))
  build.onResolve({ filter: RUNTIME_ID_RE }, () => ({ path: ctx.resolveId(RUNTIME_ID)! }))
  build.onResolve({ filter: /.*/, namespace: PLUGIN_NAME }, (args) =>
    isAbsolute(args.path) ? { path: args.path } : undefined,
  )
  // After `startBuild` reported the errors, a generated module fails with a short message and no
  // callback's stack (this runs before unplugin's own `onLoad`).
  build.onLoad({ filter: /.*/, namespace: PLUGIN_NAME }, (args) =>
    ctx.failed && ctx.isGenerated(args.path) ? { errors: [{ text: UNAVAILABLE }] } : undefined,
  )
}

/** Compiles, and gives esbuild each error and each new warning as a message of its own. */
async function startBuild(ctx: RootContext): Promise<OnStartResult> {
  const { warnings, error } = await ctx.compile()
  const root = ctx.options.root
  return {
    errors: error ? toEsbuildMessages(error, root) : [],
    warnings: warnings.map((warning) => toEsbuildWarning(warning, root)),
  }
}

/**
 * One esbuild message per diagnostic: esbuild prints each with its location, its own code frame
 * and the hint as a note. esbuild's columns are 0-based bytes (and so are the ones it prints).
 */
function toEsbuildMessages(error: BuildError, workingDir: string): PartialMessage[] {
  return error.located.map(({ diagnostic, file }) => toEsbuildMessage(diagnostic, file, workingDir))
}

/** A warning keeps the `[site-skills]` prefix that every warning of the plugin carries. */
function toEsbuildWarning({ diagnostic, file }: BuildWarning, workingDir: string): PartialMessage {
  const message = toEsbuildMessage(diagnostic, file, workingDir)
  return { ...message, text: `${LOG_PREFIX} ${message.text}` }
}

function toEsbuildMessage(d: Diagnostic, file: string, workingDir: string): PartialMessage {
  const text = readQuietly(file)
  const lineText = text === undefined ? undefined : linesOf(text)[d.line - 1]
  const at = { file: toPosix(relative(workingDir, file)), line: d.line }
  const location =
    lineText === undefined
      ? { ...at, column: 0 }
      : { ...at, column: Buffer.byteLength(lineText.slice(0, d.column - 1)), lineText }
  const notes = d.hint ? [{ text: `hint: ${d.hint}` }] : []
  return { id: d.code, pluginName: PLUGIN_NAME, text: `${d.code}  ${d.message}`, location, notes }
}
