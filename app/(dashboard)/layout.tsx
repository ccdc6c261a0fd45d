import { getServerSession } from 'next-auth'
import { cookies } from 'next/headers'
import { modelsInForce } from '@/lib/agents/model-catalogue'
import { modelFailureNotice } from '@/lib/agents/model-health'
import { organizationModelMap } from '@/lib/agents/organization-models'
import { authOptions } from '@/lib/auth/session'
import { ORGANIZATION_COOKIE } from '@/lib/auth/tenant'
import { memberships } from '@/lib/members/memberships'
import { config } from '@/lib/config'
import { databaseCapacity } from '@/lib/db/capacity'
import { getDatabase } from '@/lib/db/client'
import { recentModelProbe } from '@/lib/models/probe'
import { AppShell } from '@/components/layout/app-shell'
import { ServerLimitsProvider } from '@/components/layout/server-limits'
import { ServerModelsProvider } from '@/components/layout/server-models'
import { SignInRedirect } from '@/components/layout/sign-in-redirect'

export const dynamic = 'force-dynamic'

/** What the server says about itself on every page: the database near its ceiling, the model failing (issue 22). */
function serverNotice(capacity: string | null | undefined): string | null {
  return [capacity, modelFailureNotice()].filter(Boolean).join(' ') || null
}

function NoOrganization() {
  return (
    <main className="flex min-h-dvh flex-col items-center justify-center gap-3 p-8 text-sm text-muted-foreground" role="status">
      <p>You are not a member of any organization any more. Ask an admin for an invitation.</p>
      <a className="font-medium text-foreground underline" href="/api/auth/signout">
        Sign out
      </a>
    </main>
  )
}

export default async function DashboardLayout({ children }: { children: React.ReactNode }) {
  const session = await getServerSession(authOptions())
  // the browser knows the page asked for (a deep link): it goes to sign in and comes back there
  if (!session?.user) return <SignInRedirect />
  const userId = (session.user as { id?: string }).id
  const member = userId ? await memberships(userId, (await cookies()).get(ORGANIZATION_COOKIE)?.value) : null
  // removed from their only organization: nothing to show but the way out
  if (!member) return <NoOrganization />
  // the organization's own model map (issue 27) names what the agent form's choices are sent as
  const { chat, embeddings } = modelsInForce(await organizationModelMap(member.organizationId))
  // the model server answering (its cached probe, lib/models/probe.ts): a render waits for a new probe at most 1.5 s
  const down = chat.configured ? (await recentModelProbe(1500))?.chat : null
  // the embedded database near the chunks it serves well (issue 12, lib/db/capacity.ts): said on every page
  const capacity = await databaseCapacity(await getDatabase(), embeddings.configured).catch(() => null)
  return (
    <ServerLimitsProvider limits={{ maxFileMb: config().LIMIT_FILE_SIZE_MB }}>
      <ServerModelsProvider models={{ chatConfigured: chat.configured, problem: chat.problem, modelIds: chat.models, down: down?.status === 'down' ? down.message : null }}>
        <AppShell member={{ email: session.user.email ?? session.user.name ?? 'Signed in', ...member }} notice={serverNotice(capacity?.level === 'ok' ? null : capacity?.message)}>
          {children}
        </AppShell>
      </ServerModelsProvider>
    </ServerLimitsProvider>
  )
}
