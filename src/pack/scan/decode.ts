/**
 * The text of a file as the secret scan reads it: UTF-8, or UTF-16 when the file says so (a byte
 * order mark) or looks so (NUL bytes at every other place, as in a key saved by a Windows editor).
 */

/** Bytes looked at to guess UTF-16 without a byte order mark. */
const SAMPLE = 4096

/** Which byte of each pair is mostly NUL: 'le' (the odd ones), 'be' (the even ones), or neither. */
function nulPattern(bytes: Buffer): 'le' | 'be' | undefined {
  const length = Math.min(bytes.length, SAMPLE) & ~1
  if (length < 8) return undefined
  let even = 0
  let odd = 0
  for (let i = 0; i < length; i += 2) {
    if (bytes[i] === 0) even++
    if (bytes[i + 1] === 0) odd++
  }
  const pairs = length / 2
  if (odd > pairs * 0.3 && even < pairs * 0.05) return 'le'
  if (even > pairs * 0.3 && odd < pairs * 0.05) return 'be'
  return undefined
}

/** UTF-16 big-endian bytes as a string (Node decodes only little-endian). */
function decodeBigEndian(bytes: Buffer): string {
  const swapped = Buffer.from(bytes.subarray(0, bytes.length & ~1))
  return swapped.swap16().toString('utf16le')
}

/** A file's text: UTF-16 by its byte order mark or its NUL bytes, else UTF-8 (a UTF-8 BOM dropped). */
export function decodeText(bytes: Buffer): string {
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return bytes.subarray(2).toString('utf16le')
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return decodeBigEndian(bytes.subarray(2))
  const pattern = nulPattern(bytes)
  if (pattern === 'le') return bytes.toString('utf16le')
  if (pattern === 'be') return decodeBigEndian(bytes)
  const text = bytes.toString('utf8')
  return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text
}
