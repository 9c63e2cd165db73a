/**
 * Google Docs editors (Docs, Sheets, Slides, Forms, Drawings) on docs.google.com: URL parsing
 * and building, and opening a file in the agent's page.
 *
 * ctx used:
 * - docs_parse_url, docs_build_url: nothing (pure functions of their args).
 * - docs_open: ctx.page, a Playwright-style page with goto(url) and optionally
 *   waitForLoadState(state), url() and title(). Without ctx.page it only returns the URL.
 */

const HOST = 'https://docs.google.com'
const KINDS = { document: 'document', spreadsheet: 'spreadsheets', presentation: 'presentation', form: 'forms', drawing: 'drawings' }
const PATH_TO_KIND = Object.fromEntries(Object.entries(KINDS).map(([kind, path]) => [path, kind]))
const ID_RE = /^[A-Za-z0-9_-]{20,}$/
const MODES = ['edit', 'view', 'preview', 'copy', 'mobilebasic']
const EXPORTS = {
  document: ['pdf', 'docx', 'odt', 'rtf', 'txt', 'epub'],
  spreadsheet: ['pdf', 'xlsx', 'ods', 'csv', 'tsv'],
  presentation: ['pdf', 'pptx', 'odp'],
  drawing: ['pdf', 'png', 'jpeg', 'svg'],
}

/** OpenAI strict mode sends omitted optional arguments as null: treat them as absent. */
export function present(args) {
  return Object.fromEntries(Object.entries(args ?? {}).filter(([, value]) => value !== null && value !== undefined))
}

/**
 * Splits a docs.google.com URL into kind, file id, account index, mode and sheet/slide hints.
 * Published links (/d/e/<id>/pub) have a different id than the file and cannot be edited.
 */
export function parseDocsUrl(url) {
  let parsed
  try {
    parsed = new URL(String(url))
  } catch {
    return { valid: false, reason: 'not a URL' }
  }
  if (parsed.hostname !== 'docs.google.com') return { valid: false, reason: 'not a docs.google.com URL' }
  // /<kind>[/u/<n>]/d/[e/]<id>/<mode...>
  const m = /^\/(document|spreadsheets|presentation|forms|drawings)(?:\/u\/(\d+))?\/d\/(e\/)?([A-Za-z0-9_-]+)(?:\/([^?#]*))?/.exec(parsed.pathname)
  if (!m) {
    const create = /^\/(document|spreadsheets|presentation|forms|drawings)(?:\/u\/\d+)?\/create/.exec(parsed.pathname)
    if (create) return { valid: true, kind: PATH_TO_KIND[create[1]], id: null, mode: 'create', published: false, account: null }
    return { valid: false, reason: 'no file id in this URL' }
  }
  const [, path, account, published, id, rest = ''] = m
  const hash = new URLSearchParams(parsed.hash.slice(1))
  const gid = parsed.searchParams.get('gid') ?? hash.get('gid')
  const slide = hash.get('slide')
  const mode = rest.split('/')[0] || (published ? 'pub' : 'edit')
  return {
    valid: true,
    kind: PATH_TO_KIND[path],
    id,
    published: Boolean(published),
    account: account === undefined ? null : Number(account),
    mode,
    gid: gid === null ? null : Number(gid),
    slide: slide ?? null,
    resourceKey: parsed.searchParams.get('resourcekey'),
  }
}

/** Builds the URL of a file: edit, view, preview, copy, mobilebasic, or an export download. */
export function buildDocsUrl({ id, kind = 'document', mode = 'edit', format, gid, account } = {}) {
  if (!(kind in KINDS)) throw new Error(`kind must be one of ${Object.keys(KINDS).join(', ')}`)
  if (!ID_RE.test(String(id ?? ''))) throw new Error('id must be a Google file id (the long segment after /d/ in its URL)')
  const base = `${HOST}/${KINDS[kind]}${Number.isInteger(account) && account > 0 ? `/u/${account}` : ''}/d/${id}`
  if (format !== undefined) {
    const formats = EXPORTS[kind]
    if (!formats) throw new Error(`${kind} files cannot be exported by URL`)
    if (!formats.includes(format)) throw new Error(`format for a ${kind} must be one of ${formats.join(', ')}`)
    if (kind === 'presentation' || kind === 'drawing') return `${base}/export/${format}`
    const params = new URLSearchParams({ format })
    if (kind === 'spreadsheet' && Number.isInteger(gid)) params.set('gid', String(gid))
    return `${base}/export?${params}`
  }
  if (!MODES.includes(mode)) throw new Error(`mode must be one of ${MODES.join(', ')}`)
  if (mode === 'mobilebasic' && kind !== 'document') throw new Error('mobilebasic exists for documents only')
  return `${base}/${mode}${kind === 'spreadsheet' && Number.isInteger(gid) ? `#gid=${gid}` : ''}`
}

/** Node tool docs_parse_url. */
export async function docsParseUrl(_ctx, args) {
  args = present(args)
  if (!args.url) throw new Error('url is required')
  return parseDocsUrl(args.url)
}

/** Node tool docs_build_url. */
export async function docsBuildUrl(_ctx, args) {
  return { url: buildDocsUrl(present(args)) }
}

/**
 * Node tool docs_open: navigates ctx.page to a file (by id or URL) and reports where it landed.
 * A redirect to accounts.google.com means the browser profile is not signed in or lacks access.
 */
export async function docsOpen(ctx, args) {
  args = present(args)
  let url
  if (args.url) {
    const parsed = parseDocsUrl(args.url)
    if (!parsed.valid) throw new Error(`url: ${parsed.reason}`)
    url = String(args.url)
  } else {
    url = buildDocsUrl({ id: args.id, kind: args.kind, mode: args.mode ?? 'edit', account: args.account })
  }
  const page = ctx?.page
  if (!page || typeof page.goto !== 'function') {
    return { url, navigated: false, reason: 'ctx.page with goto() is not available; open the URL yourself' }
  }
  await page.goto(url)
  if (typeof page.waitForLoadState === 'function') {
    try { await page.waitForLoadState('domcontentloaded') } catch {}
  }
  const finalUrl = typeof page.url === 'function' ? await page.url() : null
  const title = typeof page.title === 'function' ? await page.title() : null
  const host = finalUrl ? new URL(finalUrl).hostname : null
  return {
    url,
    navigated: true,
    finalUrl,
    title,
    signInRequired: host === 'accounts.google.com',
  }
}
