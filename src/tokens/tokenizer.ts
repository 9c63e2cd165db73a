/**
 * The tokenizer: gpt-tokenizer's `o200k_base` encoding (GPT-4o, GPT-4.1, GPT-5, the o-series), an
 * optional peer loaded only when a count is asked for (`context --tokens`, `tokenBudget`, the MCP
 * server's default mode). Claude's tokenizer is not published; its counts of the same text differ.
 */
import { loadWithPeers } from '../own/peers'
import { countInPieces } from './chunks'

/** Counts the tokens of a text. */
export interface Tokenizer {
  /** The encoding's name, printed with every figure. */
  encoding: string
  count: (text: string) => number
}

const ENCODING = 'o200k_base'

let loading: Promise<Tokenizer> | undefined

/**
 * The tokenizer, loaded once. Text is counted as plain text: a special token's spelling in a note
 * (`<|endoftext|>`) is not refused, it counts as what it is, characters. Long texts are counted in
 * pieces (`countInPieces`), so the work stays linear whatever the text.
 */
export function loadTokenizer(): Promise<Tokenizer> {
  loading ??= loadWithPeers('tokens', () => import('gpt-tokenizer/encoding/o200k_base')).then(
    ({ countTokens }) => {
      const plain = { disallowedSpecial: new Set<string>() }
      return { encoding: ENCODING, count: (text: string) => countInPieces(text, (piece) => countTokens(piece, plain)) }
    },
    (error: unknown) => {
      loading = undefined
      throw error
    },
  )
  return loading
}
