import { getServerSession } from 'next-auth'
import { modelsInForce } from '@/lib/agents/model-catalogue'
import { modelFailureNotice } from '@/lib/agents/model-health'
import { organizationModelMap } from '@/lib/agents/organization-models'
import { memberContext } from '@/lib/auth/tenant'
import { authOptions } from '@/lib/auth/session'
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

export default async function DashboardLayout({ children }: { children: React.ReactNode }) {
  const session = await getServerSession(authOptions())
  // the browser knows the page asked for (a deep link): it goes to sign in and comes back there
  if (!session?.user) return <SignInRedirect />
  const member = await memberContext((session.user as { id?: string }).id ?? '')
  // the organization's own model map (issue 27) names what the agent form's choices are sent as
  const { chat, embeddings } = modelsInForce(member ? await organizationModelMap(member.organizationId) : {})
  // the model server answering (its cached probe, lib/models/probe.ts): a render waits for a new probe at most 1.5 s
  const down = chat.configured ? (await recentModelProbe(1500))?.chat : null
  // the embedded database near the chunks it serves well (issue 12, lib/db/capacity.ts): said on every page
  const capacity = await databaseCapacity(await getDatabase(), embeddings.configured).catch(() => null)
  return (
    <ServerLimitsProvider limits={{ maxFileMb: config().LIMIT_FILE_SIZE_MB }}>
      <ServerModelsProvider models={{ chatConfigured: chat.configured, problem: chat.problem, modelIds: chat.models, down: down?.status === 'down' ? down.message : null }}>
        <AppShell email={session.user.email ?? session.user.name ?? 'Signed in'} notice={serverNotice(capacity?.level === 'ok' ? null : capacity?.message)}>
          {children}
        </AppShell>
      </ServerModelsProvider>
    </ServerLimitsProvider>
  )
}
