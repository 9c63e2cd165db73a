/** Wording of the findings about a tool's `examples` and their page fixtures (the data each call site passes). */

const q = (value: unknown) => JSON.stringify(value)

/** `example` names the example as a manifest path: `browserTools.read.examples[0]`. */
export type ExampleInvalidData =
  | { example: string; problem: 'duplicate-name'; name: string }
  /** `example` is the list itself here: `browserTools.read.examples`. */
  | { example: string; problem: 'not-list' | 'not-object' | 'args-required' }
  | { example: string; problem: 'unknown-key'; key: string }
  | { example: string; problem: 'field'; field: string }

/** An argument that fails the tool's checks: `expected` is `present`, `absent`, or the type or values wanted. */
export type ExampleArgsData = { example: string; argument: string; expected: string; given?: unknown }

export type ExampleFixtureData =
  | { example: string; problem: 'required' }
  | { example: string; problem: 'shape'; kind: 'browser' | 'node' }
  | { example: string; problem: 'not-found'; fixture: string; directory: boolean }

export type ExampleUrlData =
  | { example: string; problem: 'required'; kind: 'browser' | 'fixture' }
  | { example: string; problem: 'domain'; url: string; domains: readonly string[] }
  | { example: string; problem: 'path'; url: string; urls: readonly string[] }

/**
 * A page fixture's header: absent, unreadable as the format, or recording a page on another domain than the example's
 * url.
 */
export type FixtureHeaderData =
  | { fixture: string; problem: 'missing' | 'malformed'; reason: string }
  /** `recordedDomain` and `domain`: the registrable domains (or hosts) of the two urls. */
  | {
      fixture: string
      problem: 'domain'
      recorded: string
      recordedDomain: string
      example: string
      url: string
      domain: string
    }

const EXAMPLE_FIELDS: Record<string, string> = {
  name: 'name must be letters, digits, ".", "_" or "-"',
  args: 'args must be an object',
  url: 'url must be an http:// or https:// address',
  fixture: 'fixture must be a non-empty string',
}

export function exampleInvalidMessage(d: ExampleInvalidData): string {
  switch (d.problem) {
    case 'duplicate-name':
      return `${d.example}: duplicate example name ${q(d.name)}`
    case 'not-list':
      return `${d.example} must be a list of examples`
    case 'not-object':
      return `${d.example} must be an object`
    case 'args-required':
      return `${d.example}: args is required (use {} for none)`
    case 'unknown-key':
      return `${d.example}: unknown key ${q(d.key)} (known: name, args, url, fixture, expect)`
    case 'field':
      return `${d.example}: ${EXAMPLE_FIELDS[d.field] ?? `invalid ${d.field}`}`
  }
}

export function exampleArgsMessage(d: ExampleArgsData): string {
  if (d.expected === 'present') return `${d.example}: missing required argument "${d.argument}"`
  if (d.expected === 'absent') return `${d.example}: unknown argument "${d.argument}"`
  return `${d.example}: argument "${d.argument}" must be ${d.expected} (got ${q(d.given)?.slice(0, 60)})`
}

export function exampleFixtureMessage(d: ExampleFixtureData): string {
  switch (d.problem) {
    case 'required':
      return `${d.example}: a browser tool example needs a fixture (a saved page, fixtures/<name>.html)`
    case 'shape':
      return (
        `${d.example}: fixture must be ` +
        `${d.kind === 'browser' ? 'fixtures/<name>.html' : 'fixtures/<name>.html|json|txt|xml'}`
      )
    case 'not-found':
      return `${d.example}: missing fixture ${q(d.fixture)}${d.directory ? ': it is a directory' : ''}`
  }
}

export function exampleUrlMessage(d: ExampleUrlData): string {
  if (d.problem === 'domain') return `${d.example}: url ${q(d.url)} does not match ${d.domains.join(', ') || 'none'}`
  if (d.problem === 'path') return `${d.example}: the path of url ${q(d.url)} does not match urls ${d.urls.join(', ')}`
  const why = d.kind === 'browser' ? 'a browser tool example needs url' : 'a fixture is served under url: add url'
  return `${d.example}: ${why} (the page address the tool runs on)`
}

export function fixtureHeaderMessage(d: FixtureHeaderData): string {
  if (d.problem !== 'domain')
    return d.problem === 'missing'
      ? `fixture ${q(d.fixture)} has no site-skills fixture header: ${d.reason}`
      : `fixture ${q(d.fixture)} has a malformed header: ${d.reason}`
  return (
    `fixture ${q(d.fixture)} was captured at ${q(d.recorded)} (${d.recordedDomain}), ` +
    `but ${d.example} serves it under ${q(d.url)} (${d.domain})`
  )
}

/** The hint of a header finding, naming what to write. */
export function fixtureHeaderHint(d: FixtureHeaderData): string | undefined {
  if (d.problem !== 'domain') return undefined
  return (
    `Serve the fixture under a URL on ${d.recordedDomain}, or record in its header the address it was really ` +
    `captured at.`
  )
}
