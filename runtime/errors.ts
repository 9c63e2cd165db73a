import { type SiteToolErrorCode, type SiteToolErrorData, clip, errorMessage } from './error-catalog'

export type { SiteToolErrorCode } from './error-catalog'

export interface SiteToolErrorInit {
  siteId?: string
  tool?: string
  cause?: unknown
  /** The tool's own file (relative to its root) and 1-based position, when known. */
  file?: string
  line?: number
  column?: number
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
    const where = init.siteId ? `${clip(init.siteId)}${init.tool ? ` -> ${clip(init.tool)}` : ''}: ` : ''
    const at = init.file
      ? ` (${init.file}${init.line ? `:${init.line}${init.column ? `:${init.column}` : ''}` : ''})`
      : ''
    super(`${where}${message}${at}`, init.cause === undefined ? undefined : { cause: init.cause })
    this.code = code
    this.siteId = init.siteId
    this.tool = init.tool
    this.file = init.file
    this.line = init.line
    this.column = init.column
  }
}

/** A SiteToolError whose message is its code's catalog entry applied to `data`. */
export function siteToolError<C extends SiteToolErrorCode>(
  code: C,
  data: SiteToolErrorData<C>,
  init: SiteToolErrorInit = {},
): SiteToolError {
  return new SiteToolError(code, errorMessage(code, data), init)
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
