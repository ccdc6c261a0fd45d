// What the sign-in page says for next-auth's error codes (the redirect's ?error=, or signIn()'s `error`): our own
// (lib/auth/sign-in-throttle.ts, lib/auth/sso.ts) and next-auth's.

const THROTTLED = /^SignInThrottled:(.+)$/

/** "16:05": the minute the refusal ends, rounded up, in the browser's time. */
function minuteAfter(iso: string): string | null {
  const at = new Date(iso)
  if (Number.isNaN(at.getTime())) return null
  const ceiled = new Date(Math.ceil(at.getTime() / 60_000) * 60_000)
  return ceiled.toLocaleTimeString([], { hour: '2-digit', minute: '2-digit', hour12: false })
}

export function signInErrorMessage(code: string | null | undefined, status?: number): string | null {
  if (!code) return null
  const throttled = THROTTLED.exec(code)
  if (throttled) {
    const at = minuteAfter(throttled[1])
    return `Too many attempts, try again after ${at ?? 'a quarter of an hour'}.`
  }
  if (code === 'CredentialsSignin' || status === 401) return 'Wrong email or password'
  if (code === 'SsoNotAdmitted' || code === 'AccessDenied') {
    return 'Your single sign-on account is not admitted here: ask an admin to invite you or to allow your email domain.'
  }
  if (['OAuthSignin', 'OAuthCallback', 'Callback', 'OAuthCreateAccount'].includes(code)) {
    return 'Single sign-on failed: the identity provider could not be reached or its answer was refused. Try again.'
  }
  return `Could not sign in (${code}). Try again.`
}
