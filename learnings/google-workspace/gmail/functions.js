/**
 * Gmail (mail.google.com) by URL: search, compose and URL parsing. Gmail is a single-page app
 * whose DOM uses obfuscated class names; its URL fragments are the stable interface.
 *
 * ctx used: nothing; all three tools are pure functions of their args. Opening the URL they
 * return (with the agent's page) needs a signed-in browser profile.
 */

const BASE = 'https://mail.google.com/mail'
const FOLDERS = ['inbox', 'starred', 'snoozed', 'sent', 'drafts', 'important', 'scheduled', 'all', 'spam', 'trash']
const SEARCH_IN = ['inbox', 'sent', 'drafts', 'spam', 'trash', 'anywhere', 'starred', 'snoozed']
const DATE_RE = /^\d{4}[/-]\d{1,2}[/-]\d{1,2}$/
const AGE_RE = /^\d+[dmy]$/

/** OpenAI strict mode sends omitted optional arguments as null: treat them as absent. */
function present(args) {
  return Object.fromEntries(Object.entries(args ?? {}).filter(([, value]) => value !== null && value !== undefined))
}

function accountPath(account) {
  if (account === undefined || account === null) return `${BASE}/u/0/`
  if (!Number.isInteger(account) || account < 0) throw new Error('account must be a non-negative integer (the n in /mail/u/<n>/)')
  return `${BASE}/u/${account}/`
}

/** Operator values with spaces or quotes are quoted. */
function term(operator, value) {
  const text = String(value).trim()
  if (!text) return ''
  return `${operator}:${/[\s"()]/.test(text) ? `"${text.replace(/"/g, '')}"` : text}`
}

/** Gmail encodes the query of #search/ like a form value: spaces as "+". */
function encodeQuery(query) {
  return encodeURIComponent(query).replace(/%20/g, '+')
}

/** Node tool gmail_search_url: a Gmail search query and the URL that runs it. */
export async function gmailSearchUrl(_ctx, args) {
  args = present(args)
  const parts = []
  if (args.query) parts.push(String(args.query).trim())
  if (args.from) parts.push(term('from', args.from))
  if (args.to) parts.push(term('to', args.to))
  if (args.subject) parts.push(term('subject', args.subject))
  // The label: operator writes spaces and the slashes of nested labels as dashes.
  if (args.label) parts.push(term('label', String(args.label).trim().replace(/[\s/]+/g, '-')))
  if (args.in) {
    if (!SEARCH_IN.includes(args.in)) throw new Error(`in must be one of ${SEARCH_IN.join(', ')}`)
    parts.push(args.in === 'starred' || args.in === 'snoozed' ? `is:${args.in}` : `in:${args.in}`)
  }
  if (args.isUnread === true) parts.push('is:unread')
  if (args.isUnread === false) parts.push('is:read')
  if (args.hasAttachment) parts.push('has:attachment')
  if (args.newerThan) {
    if (!AGE_RE.test(args.newerThan)) throw new Error('newerThan must look like "7d", "2m" or "1y"')
    parts.push(`newer_than:${args.newerThan}`)
  }
  for (const key of ['after', 'before']) {
    if (args[key] === undefined) continue
    if (!DATE_RE.test(args[key])) throw new Error(`${key} must be a date like 2025/01/31`)
    parts.push(`${key}:${args[key].replace(/-/g, '/')}`)
  }
  const query = parts.filter(Boolean).join(' ')
  if (!query) throw new Error('give at least one search criterion')
  return { query, url: `${accountPath(args.account)}#search/${encodeQuery(query)}` }
}

/**
 * Node tool gmail_compose_url: a URL that opens a prefilled compose window. Nothing is sent;
 * the user (or the agent, with explicit permission) still presses Send.
 */
export async function gmailComposeUrl(_ctx, args) {
  args = present(args)
  const list = (value) => (Array.isArray(value) ? value : value ? [value] : []).map(String).map((s) => s.trim()).filter(Boolean).join(',')
  // Encoded with %20 rather than "+" for spaces, which every mail client decodes the same way.
  const params = [['view', 'cm'], ['fs', '1'], ['to', list(args.to)], ['cc', list(args.cc)], ['bcc', list(args.bcc)], ['su', args.subject], ['body', args.body]]
    .filter(([, value]) => value !== undefined && value !== null && String(value) !== '')
    .map(([key, value]) => `${key}=${encodeURIComponent(String(value))}`)
  return { url: `${accountPath(args.account)}?${params.join('&')}` }
}

/** Node tool gmail_parse_url: what a Gmail URL shows (folder, label, search, thread, compose). */
export async function gmailParseUrl(_ctx, args) {
  args = present(args)
  let url
  try {
    url = new URL(String(args.url ?? ''))
  } catch {
    return { valid: false, reason: 'not a URL' }
  }
  if (url.hostname !== 'mail.google.com') return { valid: false, reason: 'not a mail.google.com URL' }
  const account = /^\/mail\/u\/(\d+)/.exec(url.pathname)
  const segments = url.hash.replace(/^#/, '').split('/').filter(Boolean)
  const [head = 'inbox', ...rest] = segments
  const decode = (s) => decodeURIComponent(s.replace(/\+/g, ' '))
  const result = {
    valid: true,
    account: account ? Number(account[1]) : 0,
    view: head,
    folder: null,
    label: null,
    query: null,
    threadId: null,
    settingsTab: null,
    compose: url.searchParams.get('compose'),
  }
  if (FOLDERS.includes(head)) {
    result.view = 'folder'
    result.folder = head
    result.threadId = rest[0] && !/^p\d+$/.test(rest[0]) ? rest[0] : null
  } else if (head === 'label') {
    result.view = 'label'
    result.label = rest[0] ? decode(rest[0]) : null
    result.threadId = rest[1] ?? null
  } else if (head === 'search' || head === 'advanced-search') {
    result.view = 'search'
    result.query = rest[0] ? decode(rest[0]) : null
    result.threadId = rest[1] ?? null
  } else if (head === 'settings') {
    result.settingsTab = rest[0] ?? null
  }
  if (result.threadId) result.view = 'thread'
  return result
}
