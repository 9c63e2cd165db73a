import type { NodeCall } from './node'

/**
 * Calls a Node tool (see node.ts). The runner is loaded with the first Node tool call: a browser
 * build has no Node tools, and an agent that calls only browser tools never loads it.
 */
export async function callNodeTool(call: NodeCall): Promise<unknown> {
  return (await import('./node')).callNodeTool(call)
}
