'use client'

import * as React from 'react'
import { signIn } from 'next-auth/react'
import { toast } from 'sonner'
import { errorMessage } from '@/components/api-client'
import { FormField } from '@/components/layout/form-field'
import { PendingButton } from '@/components/layout/pending-button'
import { Input } from '@/components/ui/input'
import { changePassword } from './account-api'

/**
 * Changes the signed-in user's password. The server ends every session made before (this one too), so the form signs
 * in again with the new password at once.
 */
export function PasswordChangeForm({ email }: { email: string }) {
  const [error, setError] = React.useState<string | null>(null)
  const [pending, setPending] = React.useState(false)

  async function onSubmit(event: React.FormEvent<HTMLFormElement>) {
    event.preventDefault()
    const formElement = event.currentTarget
    const form = new FormData(formElement)
    const currentPassword = String(form.get('currentPassword') ?? '')
    const newPassword = String(form.get('newPassword') ?? '')
    setError(null)
    setPending(true)
    try {
      await changePassword(currentPassword, newPassword)
      await signIn('credentials', { email, password: newPassword, redirect: false })
      formElement.reset()
      toast.success('Password changed: your other sessions have been signed out')
    } catch (e) {
      setError(errorMessage(e))
    } finally {
      setPending(false)
    }
  }

  return (
    <form onSubmit={onSubmit} className="grid max-w-sm gap-5" aria-label="Change password">
      {error && (
        <p role="alert" className="text-sm text-destructive">
          {error}
        </p>
      )}
      <FormField id="currentPassword" label="Current password">
        <Input id="currentPassword" name="currentPassword" type="password" autoComplete="current-password" required />
      </FormField>
      <FormField id="newPassword" label="New password">
        <Input id="newPassword" name="newPassword" type="password" autoComplete="new-password" minLength={8} required />
      </FormField>
      <PendingButton type="submit" pending={pending} className="justify-self-start">
        Change password
      </PendingButton>
    </form>
  )
}
