/**
 * Where to go after signing in: a path on this site only (never another origin). next-auth passes absolute URLs of
 * our own origin; those are reduced to their path.
 */
export function safeCallbackPath(raw: string | undefined | null, origin?: string): string | null {
  if (!raw) return null
  if (raw.startsWith('/') && !raw.startsWith('//') && !raw.startsWith('/\\')) return raw.startsWith('/login') ? null : raw
  if (!origin) return null
  try {
    const url = new URL(raw)
    if (url.origin !== origin || url.pathname.startsWith('/login')) return null
    return url.pathname + url.search + url.hash
  } catch {
    return null
  }
}
