import { z } from 'zod'

// Crawl rules of a web site (README "Schedules and webhooks"): which paths are kept, how many pages, how deep.

export const MAX_PATTERNS = 50
export const MAX_CRAWL_DEPTH = 20

/** A pattern on the URL's path (and query): `/regex/flags`, else a glob where `*` is any run of characters but `/`, `**` any run at all. */
const Pattern = z
  .string()
  .trim()
  .min(1)
  .max(300)
  .refine(p => compilePattern(p) !== null, 'not a valid glob or /regular expression/')

export const CrawlRulesSchema = {
  include: z.array(Pattern).max(MAX_PATTERNS).optional(),
  exclude: z.array(Pattern).max(MAX_PATTERNS).optional(),
  maxPages: z.number().int().min(1).max(100_000).optional(),
  maxDepth: z.number().int().min(0).max(MAX_CRAWL_DEPTH).optional(),
}

export interface CrawlRules {
  include?: string[]
  exclude?: string[]
  maxPages?: number
  maxDepth?: number
}

export function compilePattern(pattern: string): RegExp | null {
  try {
    const regex = /^\/(.+)\/([imsu]*)$/.exec(pattern)
    if (regex && !pattern.startsWith('//')) return new RegExp(regex[1], regex[2])
    const glob = pattern
      .split(/(\*\*|\*|\?)/)
      .map(part => (part === '**' ? '.*' : part === '*' ? '[^/]*' : part === '?' ? '[^/]' : part.replace(/[.+^${}()|[\]\\]/g, '\\$&')))
      .join('')
    return new RegExp(`^${glob}$`)
  } catch {
    return null
  }
}

/**
 * Whether a page's URL passes the rules: its path (with the query, if any) matches one include pattern (when there
 * are any) and no exclude pattern. A glob matches the whole path, a regular expression any part of it.
 */
export function rulesFilter(rules: CrawlRules): (url: string) => boolean {
  const include = (rules.include ?? []).map(compilePattern).filter((r): r is RegExp => r !== null)
  const exclude = (rules.exclude ?? []).map(compilePattern).filter((r): r is RegExp => r !== null)
  if (include.length === 0 && exclude.length === 0) return () => true
  return url => {
    let path: string
    try {
      const parsed = new URL(url)
      path = parsed.pathname + parsed.search
    } catch {
      return false
    }
    const test = (r: RegExp) => r.test(path) || (r.source.startsWith('^') && r.test(path.split('?')[0]))
    return (include.length === 0 || include.some(test)) && !exclude.some(test)
  }
}

/** The rules stored in a site's config (anything malformed ignored). */
export function rulesOf(config: Record<string, unknown>): CrawlRules {
  const list = (v: unknown) => (Array.isArray(v) ? v.filter((p): p is string => typeof p === 'string') : undefined)
  const int = (v: unknown) => (typeof v === 'number' && Number.isInteger(v) && v >= 0 ? v : undefined)
  return { include: list(config.include), exclude: list(config.exclude), maxPages: int(config.maxPages), maxDepth: int(config.maxDepth) }
}
