import { createHash } from 'node:crypto'
import { ProtocolError, ProtocolErrorCode } from '@modelcontextprotocol/server'

/** Items per page of a list (`tools/list`, `resources/list`, `skills/list`, a directory). */
export const PAGE_SIZE = 100

/**
 * One page of a list. The cursor holds the offset and a digest of the whole list, so that it
 * needs no state on the server and a list that changed meanwhile is noticed.
 */
export function pageOf<T>(items: readonly T[], cursor: string | undefined): { page: T[]; nextCursor?: string } {
  const digest = createHash('sha256').update(JSON.stringify(items)).digest('base64url').slice(0, 16)
  let offset = 0
  if (cursor !== undefined) {
    const [at, of] = Buffer.from(cursor, 'base64url').toString('utf8').split(':')
    offset = Number(at)
    if (of !== digest || !Number.isInteger(offset) || offset < 0 || offset > items.length)
      throw new ProtocolError(
        ProtocolErrorCode.InvalidParams,
        'the list changed since this cursor was given: list again from the start',
      )
  }
  const end = offset + PAGE_SIZE
  const page = items.slice(offset, end)
  return end < items.length ? { page, nextCursor: Buffer.from(`${end}:${digest}`).toString('base64url') } : { page }
}
