import { redirect } from 'next/navigation'
import { getServerSession } from 'next-auth'
import { authOptions } from '@/lib/auth/session'
import { config } from '@/lib/config'
import { AppShell } from '@/components/layout/app-shell'
import { ServerLimitsProvider } from '@/components/layout/server-limits'

export const dynamic = 'force-dynamic'

export default async function DashboardLayout({ children }: { children: React.ReactNode }) {
  const session = await getServerSession(authOptions())
  if (!session?.user) redirect('/login')
  return (
    <ServerLimitsProvider limits={{ maxFileMb: config().LIMIT_FILE_SIZE_MB }}>
      <AppShell email={session.user.email ?? session.user.name ?? 'Signed in'}>{children}</AppShell>
    </ServerLimitsProvider>
  )
}
