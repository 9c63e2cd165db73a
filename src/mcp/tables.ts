/**
 * The size of every table the MCP server holds while it runs, each with its cap (docs/mcp.md,
 * Limits). With `DEBUG=site-skills` the server prints them on stderr after each tool call: how a
 * test (test/mcp/tables.test.ts) sees that a table stays bounded through the real server.
 */
export interface TableSizes {
  /** Connected clients (stdio: one; HTTP: the sessions, and the shared 2026-07-28 client). */
  clients: number
  /** The browser's pages the server follows, and its CDP sessions to them. */
  tabs: number
  sessions: number
  /** Browser contexts of the server's own test runs, whose pages no client sees. */
  hidden: number
  /** Tabs closed whose last events may still come. */
  leaving: number
  /** Tabs held by a client, and browser contexts made for one. */
  held: number
  contexts: number
  /** Skills kept as they last compiled (at most the skills of the roots). */
  kept: number
  /** Output schemas compiled by the current catalog (at most one per tool). */
  schemas: number
}

/** The line `DEBUG=site-skills` prints: `tables: clients 1, tabs 2, ...`. */
export function tablesLine(sizes: TableSizes): string {
  return `tables: ${Object.entries(sizes)
    .map(([name, size]) => `${name} ${size}`)
    .join(', ')}`
}
