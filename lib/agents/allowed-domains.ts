import { z } from 'zod'
import { Forbidden } from '@/lib/http/errors'

// An agent's domain allow-list (issue 14): the sites whose pages may frame its public chat (CSP frame-ancestors) and
// query it from a browser (the Origin header). Empty: any site. An entry is a host ("example.com", "*.example.com"
// for its subdomains, "localhost:3000" for one port; without a port, any port), optionally with its scheme
// ("https://shop.example.com": that scheme only). An Origin check stops browsers, not scripts (a script sends any
// Origin it likes): what stops scripts is the per-visitor and per-address rate limit and, where the agent requires
// it, a visitor identity signed by the site's server (lib/agents/visitor-signature.ts).

export const ALLOWED_DOMAINS_MAX = 50
const ENTRY = /^(?:(https?):\/\/)?((?:\*\.)?[a-z0-9](?:[a-z0-9-]*[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]*[a-z0-9])?)*)(?::(\d{1,5}))?$/

interface DomainRule {
  scheme?: string
  host: string
  port?: string
}

function parseEntry(entry: string): DomainRule | null {
  const m = ENTRY.exec(entry.trim().toLowerCase().replace(/\/+$/, ''))
  if (!m) return null
  return { scheme: m[1], host: m[2], port: m[3] }
}

export const AllowedDomainsBody = z
  .array(
    z
      .string()
      .max(260)
      .refine(v => parseEntry(v) !== null, { message: 'a host such as example.com, *.example.com, localhost:3000 or https://shop.example.com' })
      .transform(v => v.trim().toLowerCase().replace(/\/+$/, '')),
  )
  .max(ALLOWED_DOMAINS_MAX)
  .transform(list => [...new Set(list)])

function hostMatches(ruleHost: string, host: string): boolean {
  if (ruleHost.startsWith('*.')) return host.endsWith(ruleHost.slice(1)) && host.length > ruleHost.length - 1
  return host === ruleHost
}

/** Whether a page of `origin` ("https://shop.example.com:8443") may use the agent; any origin when the list is empty. */
export function originAllowed(allowedDomains: string[], origin: string): boolean {
  if (allowedDomains.length === 0) return true
  let url: URL
  try {
    url = new URL(origin)
  } catch {
    return false
  }
  const scheme = url.protocol.replace(/:$/, '')
  return allowedDomains.some(entry => {
    const rule = parseEntry(entry)
    if (!rule || (rule.scheme && rule.scheme !== scheme)) return false
    return hostMatches(rule.host, url.hostname) && (!rule.port || rule.port === (url.port || (scheme === 'https' ? '443' : '80')))
  })
}

/**
 * The Content-Security-Policy of the agent's chat page: framed by the service's own pages (the dashboard's preview)
 * and by the listed sites; null (no policy) when the list is empty, as "frame-ancestors *" would still refuse pages
 * without a network origin (a file, about:blank).
 */
export function frameAncestorsPolicy(allowedDomains: string[]): string | null {
  if (allowedDomains.length === 0) return null
  const sources = allowedDomains.flatMap(entry => {
    const rule = parseEntry(entry)
    if (!rule) return []
    const schemes = rule.scheme ? [rule.scheme] : ['https', 'http']
    return schemes.map(scheme => `${scheme}://${rule.host}:${rule.port ?? '*'}`)
  })
  return `frame-ancestors 'self' ${sources.join(' ')}`
}

/**
 * Throws 403 origin_not_allowed when a browser page of another site, not in the list, asks. A request without
 * Origin (a server, curl) or from the service's own pages (the chat in the bubble's iframe; `ownHosts`) passes.
 */
export function checkOrigin(allowedDomains: string[], request: { origin: string | null; ownHosts: string[] }): void {
  const { origin, ownHosts } = request
  if (!origin || allowedDomains.length === 0) return
  try {
    if (ownHosts.includes(new URL(origin).host)) return
  } catch {}
  if (originAllowed(allowedDomains, origin)) return
  throw new Forbidden('origin_not_allowed', `This agent cannot be used from ${origin}: the site is not in its list of allowed domains`, { origin })
}
