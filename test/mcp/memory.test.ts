import { execFile } from 'node:child_process'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { describe, expect, it } from 'vitest'
import { REPO_ROOT } from '../helpers/tmp'

describe('the MCP server over many calls', () => {
  it('keeps its heap flat from 1,000 to 10,000 calls (browser, Node, failing, tabs, tools/list)', async () => {
    const { stdout } = await promisify(execFile)(
      process.execPath,
      ['--expose-gc', '--import', 'tsx', join(REPO_ROOT, 'bench/mcp-memory.ts'), '10000'],
      { cwd: REPO_ROOT, timeout: 400_000, maxBuffer: 1 << 20 },
    )
    const { heapMb } = JSON.parse(stdout) as { heapMb: Record<string, number> }
    console.log(`heap after GC: ${heapMb[1000]} MB at 1,000 calls, ${heapMb[10000]} MB at 10,000`)
    // Flat: what 9,000 more calls leave behind is a few MB at most (a leak of 1 KB a call is 9 MB).
    expect(heapMb[10000]! - heapMb[1000]!).toBeLessThan(3)
  }, 420_000)
})
