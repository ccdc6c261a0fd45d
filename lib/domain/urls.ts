import { z } from 'zod'

export function isHttpUrl(value: string): boolean {
  try {
    const url = new URL(value)
    return (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname.length > 0
  } catch {
    return false
  }
}

/** An http(s) URL as a body field: trimmed, at most 2,048 characters. */
export const HttpUrl = z.string().trim().max(2048).refine(isHttpUrl, 'must be an http:// or https:// URL')
