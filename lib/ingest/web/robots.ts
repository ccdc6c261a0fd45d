import robotsParser from 'robots-parser'
import { IngestError } from '../errors'
import { decodeText } from '../loaders/decode'
import { RefusedUrl, ROBOTS_AGENT, safeFetch, TEXT_TYPES } from './fetcher'

export interface RobotsRules {
  /** Whether our crawler may fetch `url` (always true for another origin, or without a robots.txt). */
  isAllowed(url: string): boolean
  /** Sitemap URLs the robots.txt lists. */
  sitemaps: string[]
}

const ROBOTS_MAX_BYTES = 512 * 1024

/**
 * The robots.txt of an origin. Missing, unreadable or unreachable, it allows everything (as crawlers do); a
 * refused address is not "unreachable" and propagates: the site itself is refused.
 */
export async function loadRobots(origin: string, signal?: AbortSignal): Promise<RobotsRules> {
  const robotsUrl = `${origin}/robots.txt`
  let body = ''
  try {
    const res = await safeFetch(robotsUrl, { accept: [...TEXT_TYPES, 'text/html'], signal, maxBytes: ROBOTS_MAX_BYTES })
    if (res.contentType === 'text/plain') body = decodeText(res.body, res.charset)
  } catch (error) {
    if (signal?.aborted || error instanceof RefusedUrl || !(error instanceof IngestError)) throw error
  }
  const robots = robotsParser(robotsUrl, body)
  return {
    isAllowed: url => {
      try {
        if (new URL(url).origin !== origin) return true
      } catch {
        return false
      }
      return robots.isAllowed(url, ROBOTS_AGENT) !== false
    },
    sitemaps: robots.getSitemaps(),
  }
}
