import { parse as parseDomain } from 'tldts'
import { type DiagnosticCode, type Finding, describeFinding } from '../diagnostics/catalog'
import type { DomainReason } from '../diagnostics/messages'

/** A problem of a pattern, in its diagnostic's words. */
interface DomainProblem {
  code: DiagnosticCode
  message: string
  hint?: string
}

export interface DomainCheck {
  /** The normalized pattern (lowercase, punycode, no trailing dot), absent when rejected. */
  pattern?: string
  problems: DomainProblem[]
}

/** A pattern's findings, as validation reports them. */
interface DomainFindings {
  pattern?: string
  findings: Finding[]
}

const IPV4_RE = /^\d{1,3}(?:\.\d{1,3}){3}$/
const IPV6_RE = /^\[[0-9a-f:.]+\]$/i
const PORT_RE = /:\d*$/
const FORBIDDEN_RE = /[/?#@\\]/
const ASCII_RE = /^\p{ASCII}*$/u

const rejected = (finding: Finding): DomainFindings => ({ findings: [finding] })
const reject = (pattern: string, reason: DomainReason) =>
  rejected({ code: 'domain-invalid', data: { pattern, reason } })

/** A pattern with a port: say that ports are ignored when matching, and what to write instead. */
function rejectPort(raw: string): DomainFindings {
  const host = raw.includes(']:') ? raw.slice(0, raw.lastIndexOf(']:') + 1) : raw.replace(PORT_RE, '')
  return rejected({ code: 'domain-port', data: { pattern: raw, host } })
}

function normalizeHost(host: string): string | undefined {
  try {
    return new URL(`http://${host}/`).hostname
  } catch {
    return undefined
  }
}

function isIpHost(host: string): boolean {
  return IPV4_RE.test(host) || IPV6_RE.test(host)
}

function isPublicSuffix(host: string): boolean {
  const info = parseDomain(host, { allowPrivateDomains: true })
  return !info.isIp && info.publicSuffix === host && (info.isIcann === true || info.isPrivate === true)
}

/** An IPv6 literal as the URL parser writes it (`[0:0:0:0:0:0:0:1]` is `[::1]`), or rejected. */
function checkIpv6(raw: string, base: string, wildcard: boolean): DomainFindings {
  if (wildcard) return reject(raw, { why: 'wildcard-ip' })
  const host = normalizeHost(base)
  if (!host) return reject(raw, { why: 'ipv6' })
  return { pattern: host, findings: [] }
}

const MAX_LABEL_LENGTH = 63
const MAX_HOST_LENGTH = 253

/** DNS limits, on the punycode form: 63 characters a label, 253 a host (a wildcard needs 2 more). */
function lengthProblem(host: string, wildcard: boolean): DomainReason | undefined {
  if (isIpHost(host)) return undefined
  const long = host.split('.').find((label) => label.length > MAX_LABEL_LENGTH)
  if (long) return { why: 'label-length', label: long, max: MAX_LABEL_LENGTH }
  const max = wildcard ? MAX_HOST_LENGTH - 2 : MAX_HOST_LENGTH
  if (host.length > max) return { why: 'host-length', length: host.length, max, wildcard }
  return undefined
}

/**
 * Checks one domain pattern: `host` or `*.host`, normalized like a URL host. Rejects schemes,
 * paths, ports, whitespace, misplaced wildcards, empty labels, wildcard IPs and public suffixes;
 * accepts `localhost` and IP addresses as exact patterns.
 */
export function checkDomain(raw: string): DomainFindings {
  if (raw.trim() === '') return rejected({ code: 'domains-invalid', data: { pattern: raw } })
  if (/\s/.test(raw)) return reject(raw, { why: 'whitespace' })
  if (raw.includes('://')) return reject(raw, { why: 'scheme', host: raw.split('://')[1]?.split('/')[0] ?? '' })
  if (FORBIDDEN_RE.test(raw)) return reject(raw, { why: 'path' })
  const wildcard = raw.startsWith('*.')
  const base = (wildcard ? raw.slice(2) : raw).replace(/\.$/, '')
  if (base.includes('*')) return reject(raw, { why: 'wildcard-place' })
  if (IPV6_RE.test(base)) return checkIpv6(raw, base, wildcard)
  if ((base.startsWith('[') && base.includes(']:')) || PORT_RE.test(base)) return rejectPort(raw)
  if (base === '' || base.split('.').includes('')) return reject(raw, { why: 'empty-label' })
  const host = normalizeHost(base)
  if (!host || host.split('.').includes('')) return reject(raw, { why: 'host' })
  const tooLong = lengthProblem(host, wildcard)
  if (tooLong) return reject(raw, tooLong)
  if (isIpHost(host) && wildcard) return reject(raw, { why: 'wildcard-ip' })
  if (isPublicSuffix(host)) return rejected({ code: 'domain-public-suffix', data: { pattern: raw, host, wildcard } })
  const pattern = wildcard ? `*.${host}` : host
  const unicode = !ASCII_RE.test(base)
  const findings: Finding[] = unicode ? [{ code: 'domain-unicode', data: { pattern: raw, normalized: pattern } }] : []
  return { pattern, findings }
}

/** Checks one domain pattern (see `checkDomain`): its normalized form, or its problems in words. */
export function checkDomainPattern(raw: string): DomainCheck {
  const { pattern, findings } = checkDomain(raw)
  return { ...(pattern === undefined ? {} : { pattern }), problems: findings.map(describeFinding) }
}
