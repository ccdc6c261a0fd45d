'use client'

import * as React from 'react'
import { signIn } from 'next-auth/react'
import { api, errorMessage } from '@/components/api-client'
import { Button } from '@/components/ui/button'
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card'
import { Input } from '@/components/ui/input'
import { Label } from '@/components/ui/label'
import type { InvitationPageState } from '@/lib/members/invitation-page'

const accept = (token: string, body: { name?: string; password?: string }) => api('POST /api/invitations/{id}/accept', { params: { id: token }, body })

/** A new account: name and password, then signed in with them and into the dashboard. */
function NewAccountForm({ token, email }: { token: string; email: string }) {
  const [name, setName] = React.useState('')
  const [password, setPassword] = React.useState('')
  const [error, setError] = React.useState<string | null>(null)
  const [pending, setPending] = React.useState(false)
  async function onSubmit(e: React.FormEvent) {
    e.preventDefault()
    setPending(true)
    setError(null)
    try {
      await accept(token, { name: name.trim(), password })
      const res = await signIn('credentials', { email, password, redirect: false })
      window.location.assign(res?.ok ? '/agents' : '/login')
    } catch (err) {
      setError(errorMessage(err))
      setPending(false)
    }
  }
  return (
    <form onSubmit={onSubmit} className="grid gap-4" aria-label="Accept the invitation">
      <div className="grid gap-2">
        <Label htmlFor="invite-name">Your name</Label>
        <Input id="invite-name" value={name} onChange={e => setName(e.target.value)} autoComplete="name" required maxLength={200} />
      </div>
      <div className="grid gap-2">
        <Label htmlFor="invite-password">Choose a password</Label>
        <Input id="invite-password" type="password" value={password} onChange={e => setPassword(e.target.value)} autoComplete="new-password" minLength={8} required />
        <p className="text-xs text-muted-foreground">8 characters or more.</p>
      </div>
      {error && <p role="alert" className="text-sm text-destructive">{error}</p>}
      <Button type="submit" disabled={pending || !name.trim() || password.length < 8}>
        Join and sign in
      </Button>
    </form>
  )
}

/** An existing account, signed in: join with it, and switch the dashboard to the new organization. */
function JoinButton({ token }: { token: string }) {
  const [error, setError] = React.useState<string | null>(null)
  const [pending, setPending] = React.useState(false)
  async function join() {
    setPending(true)
    try {
      const joined = await accept(token, {})
      await api('POST /api/session/organization', { body: { organizationId: joined.organizationId } })
      window.location.assign('/agents')
    } catch (err) {
      setError(errorMessage(err))
      setPending(false)
    }
  }
  return (
    <div className="grid gap-3">
      {error && <p role="alert" className="text-sm text-destructive">{error}</p>}
      <Button onClick={join} disabled={pending}>
        Join
      </Button>
    </div>
  )
}

export function AcceptInvitation({ token, state, signedInAs }: { token: string; state: InvitationPageState; signedInAs: string | null }) {
  if (!state.usable) {
    return (
      <Card>
        <CardHeader>
          <CardTitle>Invitation</CardTitle>
          <CardDescription role="alert">{state.reason}</CardDescription>
        </CardHeader>
      </Card>
    )
  }
  const here = `/invite/${encodeURIComponent(token)}`
  return (
    <Card>
      <CardHeader>
        <CardTitle>Join {state.organizationName}</CardTitle>
        <CardDescription>
          {state.email} is invited as <span className="font-medium text-foreground">{state.role}</span>.
        </CardDescription>
      </CardHeader>
      <CardContent>
        {signedInAs === state.email ? (
          <JoinButton token={token} />
        ) : state.accountExists ? (
          <p className="text-sm">
            An account for {state.email} exists:{' '}
            <a className="font-medium underline" href={`/login?callbackUrl=${encodeURIComponent(here)}`}>
              sign in with it
            </a>
            , then come back to this link.
          </p>
        ) : (
          <NewAccountForm token={token} email={state.email} />
        )}
      </CardContent>
    </Card>
  )
}
