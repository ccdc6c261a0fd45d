'use client'

import * as React from 'react'
import { useRouter } from 'next/navigation'
import { signIn } from 'next-auth/react'
import { AlertCircle } from 'lucide-react'
import { FormField } from '@/components/layout/form-field'
import { PendingButton } from '@/components/layout/pending-button'
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card'
import { Input } from '@/components/ui/input'
import { safeCallbackPath } from './callback-url'
import { signInErrorMessage } from './sign-in-errors'
import { SsoButton } from './sso-button'

/** The sign-in form; `error` is the code a redirect brought back (a refused single sign-on), `sso` the button's label. */
export function LoginForm({ callbackUrl, error: initialError, sso }: { callbackUrl?: string; error?: string; sso?: string | null }) {
  const router = useRouter()
  const [error, setError] = React.useState<string | null>(() => signInErrorMessage(initialError))
  const [pending, setPending] = React.useState(false)

  async function onSubmit(event: React.FormEvent<HTMLFormElement>) {
    event.preventDefault()
    const form = new FormData(event.currentTarget)
    const email = String(form.get('email') ?? '').trim()
    const password = String(form.get('password') ?? '')
    setError(null)
    setPending(true)
    try {
      const res = await signIn('credentials', { email, password, redirect: false })
      if (!res || res.error || !res.ok) {
        setError(signInErrorMessage(res?.error ?? 'CredentialsSignin', res?.status))
        setPending(false)
        return
      }
      router.replace(safeCallbackPath(callbackUrl, window.location.origin) ?? '/')
      router.refresh()
    } catch {
      setError('Could not reach the server. Check your connection and try again.')
      setPending(false)
    }
  }

  const invalid = error ? true : undefined
  return (
    <Card>
      <CardHeader className="text-center">
        <CardTitle className="text-xl">
          <h1>Sign in</h1>
        </CardTitle>
        <CardDescription>Use the email and password of your dashboard account.</CardDescription>
      </CardHeader>
      <CardContent>
        <form onSubmit={onSubmit} className="grid gap-5" noValidate={false}>
          {error && (
            <div
              role="alert"
              className="flex items-start gap-2 rounded-md border border-destructive/40 bg-destructive/5 px-3 py-2 text-sm text-destructive"
            >
              <AlertCircle className="mt-0.5 size-4 shrink-0" aria-hidden />
              <span>{error}</span>
            </div>
          )}
          <FormField id="email" label="Email">
            <Input id="email" name="email" type="email" autoComplete="username" placeholder="you@example.com" required autoFocus aria-invalid={invalid} />
          </FormField>
          <FormField id="password" label="Password">
            <Input id="password" name="password" type="password" autoComplete="current-password" required aria-invalid={invalid} />
          </FormField>
          <PendingButton type="submit" className="w-full" pending={pending}>
            Sign in
          </PendingButton>
        </form>
        {sso && <SsoButton label={sso} callbackUrl={safeCallbackPath(callbackUrl) ?? '/'} />}
      </CardContent>
    </Card>
  )
}
