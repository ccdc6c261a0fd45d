// Control characters (tab, CR, LF above all) are dropped by browsers from a URL: "/\t/evil.example" becomes
// "//evil.example", another site; in a Location header CR and LF break the response (issue 22)
const CONTROL = /[\u0000-\u001f\u007f]/

/** A path of this site: one leading "/", never "//" or "/\" (another host to a browser), no control characters or "\". */
function isOwnPath(path: string): boolean {
  return path.startsWith('/') && !path.startsWith('//') && !CONTROL.test(path) && !path.includes('\\')
}

/**
 * Where to go after signing in: a path on this site only (never another origin), or null (then the caller goes to
 * "/"). next-auth passes absolute URLs of our own origin; those are reduced to their path. The sign-in page itself
 * is not a destination.
 */
export function safeCallbackPath(raw: string | undefined | null, origin?: string): string | null {
  if (!raw || CONTROL.test(raw)) return null
  let path = raw
  if (!raw.startsWith('/')) {
    if (!origin) return null
    try {
      const url = new URL(raw)
      if (url.origin !== origin) return null
      path = url.pathname + url.search + url.hash
    } catch {
      return null
    }
  }
  if (!isOwnPath(path)) return null
  // resolved against a dummy origin, the path must stay on it (catches anything a URL parser reads as a host)
  try {
    if (new URL(path, 'http://own.invalid').origin !== 'http://own.invalid') return null
  } catch {
    return null
  }
  return path === '/login' || path.startsWith('/login?') || path.startsWith('/login/') ? null : path
}
