/**
 * Browser-tool sources that several runtime tests compile (compileTools of ./browser): a file of the
 * skill folder -> its text. A test spreads them into its own files and overrides what it needs.
 */
export const PAGE_TOOL_SOURCES: Record<string, string> = {
  'browser-tools/echo.js': 'async function (args) {\n  return args\n}\n',
  'browser-tools/title.js': 'async function () {\n  return document.title\n}\n',
  'browser-tools/busy.js': 'async function () {\n  for (;;) {}\n}\n',
  'browser-tools/throws.js': [
    'async function (args) {',
    '  const value = args.n * 2',
    '',
    '  if (value > 1) {',
    "    throw new Error('too big: ' + value)",
    '  }',
    '  return value',
    '}',
    '',
  ].join('\n'),
  'browser-tools/throws-inline.js':
    "async (args) => { if (args.n > 1) throw new RangeError('inline ' + args.n); return 0 }\n",
}
