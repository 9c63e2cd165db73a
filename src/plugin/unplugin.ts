import { type UnpluginFactory, type UnpluginOptions, createUnplugin } from 'unplugin'
import { GENERATED_ID_RE, PLUGIN_NAME, RESOLVABLE_ID_RE } from '../ids'
import { esbuildHooks } from './bundlers/esbuild'
import { rollupHooks } from './bundlers/rollup'
import { viteHooks } from './bundlers/vite'
import { webpackHooks } from './bundlers/webpack'
import { type PluginContexts, createPluginContexts } from './plugin-contexts'
import type { Options } from './options'

type Framework = Parameters<UnpluginFactory<Options | undefined>>[1]['framework']

/** Each bundler's own hooks: where its root comes from, how it compiles and reports (`bundlers/`). */
const HOST_HOOKS: Partial<Record<Framework, (contexts: PluginContexts) => Partial<UnpluginOptions>>> = {
  vite: viteHooks,
  rollup: (contexts) => rollupHooks(contexts, 'rollup'),
  rolldown: (contexts) => rollupHooks(contexts, 'rolldown'),
  esbuild: esbuildHooks,
  webpack: webpackHooks,
}

/** The plugin: the hooks every bundler shares, filtered to the plugin's own ids, and the host's. */
const unpluginFactory: UnpluginFactory<Options | undefined> = (options, meta) => {
  const contexts = createPluginContexts(options)
  return {
    name: PLUGIN_NAME,
    enforce: 'pre',
    resolveId: { filter: { id: RESOLVABLE_ID_RE }, handler: (id) => contexts.current.resolveId(id) },
    load: { filter: { id: GENERATED_ID_RE }, handler: (id) => contexts.current.load(id) },
    buildEnd: () => contexts.made?.flush(),
    ...HOST_HOOKS[meta.framework]?.(contexts),
  }
}

export const unplugin = /* #__PURE__ */ createUnplugin(unpluginFactory)
