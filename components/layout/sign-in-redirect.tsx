'use client'

import * as React from 'react'

/**
 * Shown instead of a dashboard page when nobody is signed in: off to the sign-in page, which comes back to the page
 * asked for (its path, query and fragment, which only the browser knows) once signed in.
 */
export function SignInRedirect() {
  React.useEffect(() => {
    const here = window.location.pathname + window.location.search + window.location.hash
    window.location.replace(`/login?callbackUrl=${encodeURIComponent(here)}`)
  }, [])
  return (
    <main className="flex min-h-dvh items-center justify-center p-8 text-sm text-muted-foreground" role="status">
      Taking you to the sign-in page…
    </main>
  )
}
