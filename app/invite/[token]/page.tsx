import type { Metadata } from 'next'
import { getServerSession } from 'next-auth'
import { Bot } from 'lucide-react'
import { authOptions } from '@/lib/auth/session'
import { invitationPageState } from '@/lib/members/invitation-page'
import { AcceptInvitation } from '@/components/auth/accept-invitation'

export const dynamic = 'force-dynamic'

export const metadata: Metadata = { title: 'Invitation' }

/** The page an invitation's link opens (issue 24): choose a name and password, or join with the signed-in account. */
export default async function InvitationPage({ params }: { params: Promise<{ token: string }> }) {
  const { token } = await params
  const state = await invitationPageState(token)
  const session = await getServerSession(authOptions())
  return (
    <main className="flex min-h-dvh flex-col items-center justify-center bg-muted/40 px-4 py-10">
      <div className="flex w-full max-w-sm flex-col gap-6">
        <div className="flex items-center justify-center gap-2 font-semibold">
          <span className="flex size-8 items-center justify-center rounded-md bg-primary text-primary-foreground">
            <Bot className="size-5" aria-hidden />
          </span>
          Agent &amp; Datastore Service
        </div>
        <AcceptInvitation token={token} state={state} signedInAs={session?.user?.email ?? null} />
      </div>
    </main>
  )
}
