'use client'

import * as React from 'react'
import { signIn } from 'next-auth/react'
import { KeyRound } from 'lucide-react'
import { PendingButton } from '@/components/layout/pending-button'

/** "Sign in with …": next-auth's OpenID Connect sign-in (lib/auth/sso.ts), back here with ?error= when refused. */
export function SsoButton({ label, callbackUrl }: { label: string; callbackUrl: string }) {
  const [pending, setPending] = React.useState(false)
  return (
    <div className="mt-5 grid gap-3">
      <div className="flex items-center gap-3 text-xs text-muted-foreground" aria-hidden>
        <span className="h-px flex-1 bg-border" />
        or
        <span className="h-px flex-1 bg-border" />
      </div>
      <PendingButton
        type="button"
        variant="outline"
        className="w-full"
        pending={pending}
        onClick={() => {
          setPending(true)
          void signIn('oidc', { callbackUrl })
        }}
      >
        <KeyRound className="size-4" aria-hidden />
        Sign in with {label}
      </PendingButton>
    </div>
  )
}
