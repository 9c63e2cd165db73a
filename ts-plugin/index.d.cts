// The TypeScript language service plugin of unplugin-site-skills: tsserver loads it by name from
// tsconfig.json (`"plugins": [{ "name": "unplugin-site-skills/ts-plugin" }]`, docs/editor.md) with
// `require`, and calls the module itself with its own TypeScript. Not meant to be imported.
// Typed without the `typescript` package, an optional peer (and 7.x ships no JavaScript API).

/** What tsserver passes to a plugin factory: its TypeScript module. */
interface PluginModules {
  typescript: object
}

/** What tsserver gives a plugin: the project's language service, among others. */
interface PluginCreateInfo {
  languageService: object
}

/** The plugin: wraps a project's language service (completion details and hovers of site ids and tool names). */
interface PluginModule {
  create(info: PluginCreateInfo): object
}

declare function init(modules: PluginModules): PluginModule
export = init
