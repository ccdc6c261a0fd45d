import type { Metadata } from 'next'
import { redirect } from 'next/navigation'
import { getServerSession } from 'next-auth'
import { Bot } from 'lucide-react'
import { authOptions } from '@/lib/auth/session'
import { ssoSettings } from '@/lib/auth/sso'
import { LoginForm } from '@/components/auth/login-form'
import { safeCallbackPath } from '@/components/auth/callback-url'

export const dynamic = 'force-dynamic'

export const metadata: Metadata = { title: 'Sign in' }

export default async function LoginPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const params = await searchParams
  const first = (value: string | string[] | undefined) => (Array.isArray(value) ? value[0] : value)
  const raw = first(params.callbackUrl)
  const session = await getServerSession(authOptions())
  if (session) redirect(safeCallbackPath(raw) ?? '/')

  return (
    <main className="flex min-h-dvh flex-col items-center justify-center bg-muted/40 px-4 py-10">
      <div className="flex w-full max-w-sm flex-col gap-6">
        <div className="flex items-center justify-center gap-2 font-semibold">
          <span className="flex size-8 items-center justify-center rounded-md bg-primary text-primary-foreground">
            <Bot className="size-5" aria-hidden />
          </span>
          Agent &amp; Datastore Service
        </div>
        <LoginForm callbackUrl={raw} error={first(params.error)?.slice(0, 100)} sso={ssoSettings()?.name ?? null} />
      </div>
    </main>
  )
}
