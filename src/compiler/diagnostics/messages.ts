/** Wording shared by several catalog entries: how a file, a domain problem or a value schema problem is said. */

const q = (value: unknown) => JSON.stringify(value)
const INVISIBLE_ALL_RE = /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}]/gu

/** A name quoted for a message, control, format and line separator characters escaped so that they show. */
export function quoteName(name: string): string {
  return JSON.stringify(name).replace(INVISIBLE_ALL_RE, (c) => `\\u${c.codePointAt(0)!.toString(16).padStart(4, '0')}`)
}

/** A character a skill id or tool name may not hold: `U+XXXX`, and what it is. */
export interface NameCharacter {
  char: string
  what: 'invisible' | 'separator' | 'surrogate'
}

const CHARACTER_WORDS: Record<NameCharacter['what'], string> = {
  invisible: 'a control or format character',
  separator: 'a line or paragraph separator (it ends a line of JavaScript)',
  surrogate: 'a lone surrogate (no character)',
}

/** `U+2028, a line or paragraph separator (...)`. */
export function describeCharacter(c: NameCharacter): string {
  return `${c.char}, ${CHARACTER_WORDS[c.what]}`
}

/** The file a finding is about, as messages name it. */
export type Subject =
  | { kind: 'manifest' }
  | { kind: 'note' | 'node' | 'browser' | 'fixture'; name: string }
  /** A module a browser tool imports (`name`: the tool). */
  | { kind: 'import'; name: string; file: string }
  /** A package.json esbuild reads to resolve a browser tool's imports (`name`: the tool). */
  | { kind: 'resolver'; name: string; file: string }

const SUBJECT_LABELS = { note: 'note', node: 'Node tool', browser: 'browser tool', fixture: 'fixture' } as const

export function subjectLabel(subject: Subject): string {
  if (subject.kind === 'manifest') return 'manifest.json'
  if (subject.kind === 'import') return `${q(subject.file)}, imported by browser tool ${q(subject.name)},`
  if (subject.kind === 'resolver')
    return `${q(subject.file)}, which esbuild reads to resolve the imports of browser tool ${q(subject.name)},`
  const label = SUBJECT_LABELS[subject.kind]
  return `${label} ${q(subject.name)}`
}

/** Why a domain pattern is not a host: each reason with its own words. */
export type DomainReason =
  | { why: 'empty' | 'whitespace' | 'path' | 'wildcard-place' | 'wildcard-ip' | 'ipv6' | 'empty-label' | 'host' }
  | { why: 'scheme'; host: string }
  | { why: 'label-length'; label: string; max: number }
  | { why: 'host-length'; length: number; max: number; wildcard: boolean }

const DOMAIN_WORDS = {
  empty: 'empty pattern',
  whitespace: 'contains whitespace',
  path: 'contains a path, query, fragment or userinfo',
  'wildcard-place': 'a wildcard is only allowed as the whole first label ("*.example.com")',
  'wildcard-ip': 'a wildcard cannot apply to an IP address',
  ipv6: 'is not a valid IPv6 address',
  'empty-label': 'has an empty label',
  host: 'is not a valid host name',
} as const

export function domainReason(reason: DomainReason): string {
  switch (reason.why) {
    case 'scheme':
      return 'contains a scheme'
    case 'label-length': {
      const start = q(`${reason.label.slice(0, 20)}...`)
      return `the label ${start} is ${reason.label.length} characters long; a label has at most ${reason.max}`
    }
    case 'host-length':
      return (
        `the host is ${reason.length} characters long; the limit is ` +
        `${reason.max}${reason.wildcard ? ' under a wildcard' : ''}`
      )
    default:
      return DOMAIN_WORDS[reason.why]
  }
}

export function domainHint(reason: DomainReason): string | undefined {
  if (reason.why === 'scheme') return `Write the host only: ${q(reason.host)}.`
  if (reason.why === 'path') return 'Write the host only; paths never take part in matching.'
  return undefined
}

/** What is wrong inside a value schema (an argument's or a return value's). */
export type ValueProblem =
  | { field: 'schema' | 'required' | 'description' | 'enum' | 'properties' | 'nullable' | 'additionalProperties' }
  | { field: 'object-only'; key: string; type: unknown }
  | { field: 'type'; role: 'arg' | 'return'; given: unknown }
  | { field: 'property-name'; name: unknown }
  | { field: 'other'; name: string }

const VALUE_WORDS = {
  schema: 'schema must be an object',
  required: 'required must be a boolean',
  description: 'description must be a non-empty string',
  enum: 'enum must be a non-empty list of strings, numbers, booleans or null',
  properties: 'properties must be an object keyed by property name',
  nullable: 'nullable must be a boolean',
  additionalProperties: 'additionalProperties must be true, false or a value schema',
} as const

export function valueProblem(problem: ValueProblem): string {
  switch (problem.field) {
    case 'type':
      return `invalid ${problem.role} type ${q(problem.given) ?? 'undefined'}`
    case 'property-name':
      return `properties contains invalid property name ${q(problem.name)}`
    case 'other':
      return `invalid ${problem.name}`
    case 'object-only':
      return `${problem.key} applies only to "type": "object" (this value is ${q(problem.type)})`
    default:
      return VALUE_WORDS[problem.field]
  }
}
