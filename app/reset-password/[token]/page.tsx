import type { Metadata } from 'next'
import { ResetPasswordForm } from '@/components/auth/reset-password-form'

export const metadata: Metadata = { title: 'Set a new password', referrer: 'no-referrer' }

// Public: the token in the path is the credential (made by an admin, POST /api/members/{userId}/password-reset)
export default async function ResetPasswordPage({ params }: { params: Promise<{ token: string }> }) {
  const { token } = await params
  return (
    <main className="flex min-h-dvh flex-col items-center justify-center bg-muted/40 px-4 py-10">
      <div className="w-full max-w-sm">
        <ResetPasswordForm token={token} />
      </div>
    </main>
  )
}
