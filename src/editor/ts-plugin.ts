import type ts from 'typescript'

type TS = typeof ts

/** The API calls whose first argument is a site id and second (when it has one) a tool name of that site. */
const SITE_CALLS = new Set(['runTool', 'runBrowserTool', 'browserToolSource', 'loadNotes'])
const VIRTUAL_MODULE = 'virtual:site-skills'
const TYPED_API = 'TypedSiteSkills'

/** What a site id or tool name literal stands for: the `sites` member that carries the manifest's documentation. */
interface Documented {
  symbol: ts.Symbol
  checker: ts.TypeChecker
  literal: ts.StringLiteralLike
  role: 'site' | 'tool'
}

/** The string literal at a position (its quotes included), if any. */
function literalAt(t: TS, file: ts.SourceFile, position: number): ts.StringLiteralLike | undefined {
  const visit = (node: ts.Node): ts.StringLiteralLike | undefined => {
    if (position < node.getStart(file) || position > node.end) return undefined
    if (t.isStringLiteralLike(node)) return node
    return t.forEachChild(node, visit)
  }
  return visit(file)
}

/** Whether a declaration belongs to this package's typed API: `virtual:site-skills` or `TypedSiteSkills`. */
function isOurs(t: TS, declaration: ts.Node): boolean {
  for (let node: ts.Node | undefined = declaration; node; node = node.parent) {
    if (t.isModuleDeclaration(node) && t.isStringLiteral(node.name) && node.name.text === VIRTUAL_MODULE) return true
    if (t.isInterfaceDeclaration(node) && node.name.text === TYPED_API) return true
  }
  return false
}

/** The callee's name node and, for `api.runTool(...)`, the object it is called on. */
function callee(t: TS, call: ts.CallExpression): { name: ts.Identifier; object?: ts.Expression } | undefined {
  const e = call.expression
  if (t.isIdentifier(e)) return { name: e }
  if (t.isPropertyAccessExpression(e) && t.isIdentifier(e.name)) return { name: e.name, object: e.expression }
  return undefined
}

/** The type of `sites`: on the object a method is called on, else the one `virtual:site-skills` exports. */
function sitesType(checker: ts.TypeChecker, object: ts.Expression | undefined): ts.Type | undefined {
  if (object) {
    const sites = checker.getTypeAtLocation(object).getProperty('sites')
    return sites && checker.getTypeOfSymbol(sites)
  }
  const module = checker.getAmbientModules().find((m) => m.name === `"${VIRTUAL_MODULE}"`)
  const sites = module && checker.getExportsOfModule(module).find((s) => s.name === 'sites')
  return sites && checker.getTypeOfSymbol(sites)
}

/**
 * A property the type itself declares: `getProperty` also answers with the members every object
 * and function has (`constructor`, `toString`), which are no site and no tool.
 */
function ownProperty(checker: ts.TypeChecker, type: ts.Type | undefined, name: string): ts.Symbol | undefined {
  return type && checker.getPropertiesOfType(type).find((p) => p.name === name)
}

/**
 * The `sites` member a literal argument of `runTool('site', 'tool')` (and the other site calls) names:
 * `sites[site]` for the first argument, `sites[site][tool]` for the second. `name` overrides the
 * literal's text (a completion entry being looked at).
 */
function documentedAt(t: TS, program: ts.Program, fileName: string, position: number, name?: string) {
  const file = program.getSourceFile(fileName)
  const literal = file && literalAt(t, file, position)
  const call = literal?.parent
  if (!literal || !call || !t.isCallExpression(call)) return undefined
  const index = call.arguments.indexOf(literal as ts.Expression)
  const target = callee(t, call)
  if (index < 0 || index > 1 || !target || !SITE_CALLS.has(target.name.text)) return undefined
  const checker = program.getTypeChecker()
  let symbol = checker.getSymbolAtLocation(target.name)
  if (symbol && symbol.flags & t.SymbolFlags.Alias) symbol = checker.getAliasedSymbol(symbol)
  if (!symbol?.declarations?.some((d) => isOurs(t, d))) return undefined
  const sites = sitesType(checker, target.object)
  const siteArg = call.arguments[0]
  const siteId = index === 0 ? (name ?? literal.text) : siteArg && t.isStringLiteralLike(siteArg) ? siteArg.text : ''
  const site = ownProperty(checker, sites, siteId)
  if (!site || index === 0) return site && { symbol: site, checker, literal, role: 'site' as const }
  const tool = ownProperty(checker, checker.getTypeOfSymbol(site), name ?? literal.text)
  return tool && { symbol: tool, checker, literal, role: 'tool' as const }
}

function documentation({ symbol, checker }: Documented) {
  return { documentation: symbol.getDocumentationComment(checker), tags: symbol.getJsDocTags(checker) }
}

/** A hover on the literal: `(tool) "name": signature` with the manifest's documentation. */
function quickInfo(t: TS, found: Documented): ts.QuickInfo {
  const { symbol, checker, literal, role } = found
  const type = checker.typeToString(
    checker.getTypeOfSymbol(symbol),
    literal,
    t.TypeFormatFlags.NoTruncation | t.TypeFormatFlags.UseAliasDefinedOutsideCurrentScope,
  )
  const text =
    role === 'tool' ? `(tool) ${JSON.stringify(symbol.name)}: ${type}` : `(site) ${JSON.stringify(symbol.name)}`
  return {
    kind: t.ScriptElementKind.memberVariableElement,
    kindModifiers: '',
    textSpan: { start: literal.getStart() + 1, length: literal.text.length },
    displayParts: [{ text, kind: 'text' }],
    ...documentation(found),
  }
}

/**
 * A TypeScript language service plugin: completion details and hovers of the site id and tool name
 * strings in `runTool('site', 'tool')` carry the manifest's documentation, as `sites['site'].tool`
 * does. TypeScript gives string literal completions in a call argument no documentation of its own.
 */
function init({ typescript: t }: { typescript: TS }): ts.server.PluginModule {
  return {
    create(info) {
      const ls = info.languageService
      const proxy = Object.create(null) as ts.LanguageService
      for (const key of Object.keys(ls) as (keyof ts.LanguageService)[]) {
        const method = ls[key] as (...args: unknown[]) => unknown
        ;(proxy as unknown as Record<string, unknown>)[key] = (...args: unknown[]) => method.apply(ls, args)
      }
      const find = (fileName: string, position: number, name?: string) => {
        const program = ls.getProgram()
        try {
          return program && documentedAt(t, program, fileName, position, name)
        } catch (error) {
          info.project.projectService.logger.info(`unplugin-site-skills: ${String(error)}`)
          return undefined
        }
      }
      proxy.getCompletionEntryDetails = (fileName, position, entryName, ...rest) => {
        const details = ls.getCompletionEntryDetails(fileName, position, entryName, ...rest)
        if (!details || details.documentation?.length) return details
        const found = find(fileName, position, entryName)
        return found ? { ...details, ...documentation(found) } : details
      }
      proxy.getQuickInfoAtPosition = (fileName, position, ...rest) => {
        const shown = ls.getQuickInfoAtPosition(fileName, position, ...rest)
        if (shown?.documentation?.length) return shown
        const found = find(fileName, position)
        return found ? quickInfo(t, found) : shown
      }
      return proxy
    },
  }
}

export default init
