/** The byte order mark some editors write at the start of a file. */
export const BOM = '\uFEFF'

/**
 * A text without its leading byte order mark. Its own module: the plugin's error reports use it
 * without loading the JSON parser (and jsonc-parser with it).
 */
export const stripBom = (text: string): string => (text.startsWith(BOM) ? text.slice(BOM.length) : text)
