'use client'

import * as React from 'react'
import Link from 'next/link'
import { errorMessage } from '@/components/api-client'
import { setPasswordWithLink } from '@/components/account/account-api'
import { FormField } from '@/components/layout/form-field'
import { PendingButton } from '@/components/layout/pending-button'
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card'
import { Input } from '@/components/ui/input'

/** The page a reset link opens: a new password, set once with the link's token. */
export function ResetPasswordForm({ token }: { token: string }) {
  const [error, setError] = React.useState<string | null>(null)
  const [done, setDone] = React.useState<string | null>(null)
  const [pending, setPending] = React.useState(false)

  async function onSubmit(event: React.FormEvent<HTMLFormElement>) {
    event.preventDefault()
    const password = String(new FormData(event.currentTarget).get('password') ?? '')
    setError(null)
    setPending(true)
    try {
      setDone((await setPasswordWithLink(token, password)).email)
    } catch (e) {
      setError(errorMessage(e))
    } finally {
      setPending(false)
    }
  }

  return (
    <Card>
      <CardHeader className="text-center">
        <CardTitle className="text-xl">
          <h1>Set a new password</h1>
        </CardTitle>
        <CardDescription>This link works once.</CardDescription>
      </CardHeader>
      <CardContent>
        {done ? (
          <p role="status" className="grid gap-3 text-sm">
            The password of {done} is set.
            <Link href="/login" className="font-medium underline">
              Sign in
            </Link>
          </p>
        ) : (
          <form onSubmit={onSubmit} className="grid gap-5">
            {error && (
              <p role="alert" className="text-sm text-destructive">
                {error}
              </p>
            )}
            <FormField id="password" label="New password">
              <Input id="password" name="password" type="password" autoComplete="new-password" minLength={8} required autoFocus />
            </FormField>
            <PendingButton type="submit" className="w-full" pending={pending}>
              Set password
            </PendingButton>
          </form>
        )}
      </CardContent>
    </Card>
  )
}
