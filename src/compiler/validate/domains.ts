import { parse as parseDomain } from 'tldts'
import type { DiagnosticCode } from '../diagnostics/catalog'

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

const IPV4_RE = /^\d{1,3}(?:\.\d{1,3}){3}$/
const IPV6_RE = /^\[[0-9a-f:.]+\]$/i
const PORT_RE = /:\d*$/
const FORBIDDEN_RE = /[/?#@\\]/
const ASCII_RE = /^\p{ASCII}*$/u

function reject(raw: string, code: DiagnosticCode, reason: string, hint?: string): DomainCheck {
  return { problems: [{ code, message: `invalid domain ${JSON.stringify(raw)}: ${reason}`, hint }] }
}

/** A pattern with a port: say that ports are ignored when matching, and what to write instead. */
function rejectPort(raw: string): DomainCheck {
  const host = raw.includes(']:') ? raw.slice(0, raw.lastIndexOf(']:') + 1) : raw.replace(PORT_RE, '')
  const hint = `Write ${JSON.stringify(host)}: it matches that host on every port.`
  return reject(raw, 'domain-port', 'contains a port, but ports are ignored when matching', hint)
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
function checkIpv6(raw: string, base: string, wildcard: boolean): DomainCheck {
  if (wildcard) return reject(raw, 'domain-invalid', 'a wildcard cannot apply to an IP address')
  const host = normalizeHost(base)
  if (!host) return reject(raw, 'domain-invalid', 'is not a valid IPv6 address')
  return { pattern: host, problems: [] }
}

const MAX_LABEL_LENGTH = 63
const MAX_HOST_LENGTH = 253

/** DNS limits, on the punycode form: 63 characters a label, 253 a host (a wildcard needs 2 more). */
function lengthProblem(host: string, wildcard: boolean): string | undefined {
  if (isIpHost(host)) return undefined
  const long = host.split('.').find((label) => label.length > MAX_LABEL_LENGTH)
  if (long) {
    const start = JSON.stringify(`${long.slice(0, 20)}...`)
    return `the label ${start} is ${long.length} characters long; a label has at most ${MAX_LABEL_LENGTH}`
  }
  const max = wildcard ? MAX_HOST_LENGTH - 2 : MAX_HOST_LENGTH
  const under = wildcard ? ' under a wildcard' : ''
  if (host.length > max) return `the host is ${host.length} characters long; the limit is ${max}${under}`
  return undefined
}

/**
 * Checks one domain pattern of a manifest: `host` or `*.host`, normalized like a URL host.
 * Rejects schemes, paths, ports, whitespace, misplaced wildcards, empty labels, wildcard IPs and
 * public suffixes; accepts `localhost` and IP addresses as exact patterns.
 */
export function checkDomainPattern(raw: string): DomainCheck {
  if (raw.trim() === '') return reject(raw, 'domains-invalid', 'empty pattern')
  if (/\s/.test(raw)) return reject(raw, 'domain-invalid', 'contains whitespace')
  if (raw.includes('://'))
    return reject(
      raw,
      'domain-invalid',
      'contains a scheme',
      `Write the host only: ${JSON.stringify(raw.split('://')[1]?.split('/')[0] ?? '')}.`,
    )
  if (FORBIDDEN_RE.test(raw))
    return reject(
      raw,
      'domain-invalid',
      'contains a path, query, fragment or userinfo',
      'Write the host only; paths never take part in matching.',
    )
  const wildcard = raw.startsWith('*.')
  const base = (wildcard ? raw.slice(2) : raw).replace(/\.$/, '')
  if (base.includes('*'))
    return reject(raw, 'domain-invalid', 'a wildcard is only allowed as the whole first label ("*.example.com")')
  if (IPV6_RE.test(base)) return checkIpv6(raw, base, wildcard)
  if ((base.startsWith('[') && base.includes(']:')) || PORT_RE.test(base)) return rejectPort(raw)
  if (base === '' || base.split('.').includes('')) return reject(raw, 'domain-invalid', 'has an empty label')
  const host = normalizeHost(base)
  if (!host || host.split('.').includes('')) return reject(raw, 'domain-invalid', 'is not a valid host name')
  const tooLong = lengthProblem(host, wildcard)
  if (tooLong) return reject(raw, 'domain-invalid', tooLong)
  if (isIpHost(host) && wildcard) return reject(raw, 'domain-invalid', 'a wildcard cannot apply to an IP address')
  if (isPublicSuffix(host)) {
    const what = wildcard ? 'a wildcard over the public suffix' : 'a public suffix'
    return reject(raw, 'domain-public-suffix', `${what} ${JSON.stringify(host)} would match sites of many owners`)
  }
  const pattern = wildcard ? `*.${host}` : host
  const problems: DomainProblem[] = []
  if (!ASCII_RE.test(base)) {
    problems.push({
      code: 'domain-unicode',
      message: `domain ${JSON.stringify(raw)} is matched as ${JSON.stringify(pattern)}`,
      hint: `Write ${JSON.stringify(pattern)}: browsers report hosts in punycode.`,
    })
  }
  return { pattern, problems }
}
