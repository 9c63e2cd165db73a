import type { SiteToolErrorCode, SiteToolErrorData } from './error-catalog'
import { clip, notFoundMessage } from './text'

export type { SiteToolErrorCode } from './error-catalog'

export interface SiteToolErrorInit {
  siteId?: string
  tool?: string
  cause?: unknown
  /** The tool's file (relative to its root) and 1-based position, when known. */
  file?: string
  line?: number
  column?: number
}

/** `where: message (file:line:col)`: the site and tool first, the tool's own position last. */
function compose(message: string, init: SiteToolErrorInit): string {
  const where = init.siteId ? `${clip(init.siteId)}${init.tool ? ` -> ${clip(init.tool)}` : ''}: ` : ''
  const at = init.file
    ? ` (${init.file}${init.line ? `:${init.line}${init.column ? `:${init.column}` : ''}` : ''})`
    : ''
  return `${where}${message}${at}`
}

/** Every failure of a site tool: a stable `code`, the site and tool, and the original `cause`. */
export class SiteToolError extends Error {
  override name = 'SiteToolError'
  readonly code: SiteToolErrorCode
  readonly siteId?: string
  readonly tool?: string
  readonly file?: string
  readonly line?: number
  readonly column?: number

  constructor(code: SiteToolErrorCode, message: string, init: SiteToolErrorInit = {}) {
    super(compose(message, init), init.cause === undefined ? undefined : { cause: init.cause })
    this.code = code
    this.siteId = init.siteId
    this.tool = init.tool
    this.file = init.file
    this.line = init.line
    this.column = init.column
  }
}

type Format = (code: SiteToolErrorCode, data: never) => string

/**
 * The catalog's messages, once loaded. The runtime's first load leaves the catalog out (its
 * messages and hints are most of its size): the first error imports it, and every public async
 * function hands its errors over only once they carry their catalog message (see `completed`).
 * Host-side code installs it up front (internal.ts), so its messages are there synchronously.
 */
let format: Format | undefined
let loading: Promise<unknown> | undefined
/** Errors made before the catalog was loaded, with the data their message is made of. */
const pending = new WeakMap<SiteToolError, unknown>()

/** Installs the catalog's messages now (host-side code and the launcher do, see internal.ts). */
export function useMessages(messages: Format): void {
  format = messages
}

function loadMessages(): Promise<unknown> {
  loading ??= import('./error-catalog').then(
    (m) => useMessages(m.errorMessage as Format),
    () => {
      // Not loadable here (offline, a broken bundle): errors keep their short messages; try again later.
      loading = undefined
    },
  )
  return loading
}

/** A SiteToolError whose message is its code's catalog entry applied to `data`. */
export function siteToolError<C extends SiteToolErrorCode>(
  code: C,
  data: SiteToolErrorData<C>,
  init: SiteToolErrorInit = {},
): SiteToolError {
  if (format) return new SiteToolError(code, format(code, data as never), init)
  if (code === 'skill-not-found' || code === 'tool-not-found')
    return new SiteToolError(code, notFoundMessage(code, data as never), init)
  const error = new SiteToolError(code, `${code} (see docs/codes.md)`, init)
  pending.set(error, data)
  void loadMessages()
  return error
}

/**
 * `error`, given its catalog message if it was made before the catalog was loaded (the message,
 * and the first line of its stack). Never throws.
 */
export async function completed(error: unknown): Promise<unknown> {
  if (!(error instanceof SiteToolError) || !pending.has(error)) return error
  await loadMessages()
  if (!format || !pending.has(error)) return error
  const data = pending.get(error)
  pending.delete(error)
  const old = error.message
  error.message = compose(format(error.code, data as never), error)
  const stack = error.stack
  if (typeof stack === 'string' && stack.includes(old)) error.stack = stack.replace(old, () => error.message)
  return error
}

/** For `.catch`: rethrows `error` with its catalog message (see `completed`). */
async function rethrow(error: unknown): Promise<never> {
  throw await completed(error)
}

/** `fn` whose rejections carry their catalog messages: what every public async function is wrapped in. */
export function withMessages<A extends unknown[], R>(fn: (...args: A) => Promise<R>): (...args: A) => Promise<R> {
  return (...args) => fn(...args).catch(rethrow)
}

export function isSiteToolError(error: unknown, code?: SiteToolErrorCode): error is SiteToolError {
  return error instanceof SiteToolError && (code === undefined || error.code === code)
}

/** What a thrown value says: its `message`, else its JSON (a plain object), else its string form. Never throws. */
export function messageOf(error: unknown): string {
  try {
    const message = (error as Error)?.message
    if (typeof message === 'string') return message
    return error && typeof error === 'object' ? JSON.stringify(error) : String(error)
  } catch {
    return `[unprintable ${typeof error}]`
  }
}
