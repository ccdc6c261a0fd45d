import { redirect } from 'next/navigation'
import { getServerSession } from 'next-auth'
import { authOptions } from '@/lib/auth/session'
import { AppShell } from '@/components/layout/app-shell'

export const dynamic = 'force-dynamic'

export default async function DashboardLayout({ children }: { children: React.ReactNode }) {
  const session = await getServerSession(authOptions())
  if (!session?.user) redirect('/login')
  return <AppShell email={session.user.email ?? session.user.name ?? 'Signed in'}>{children}</AppShell>
}
