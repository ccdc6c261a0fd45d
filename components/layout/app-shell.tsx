'use client'

import * as React from 'react'
import Link from 'next/link'
import { usePathname } from 'next/navigation'
import { signOut } from 'next-auth/react'
import { BookOpen, UserRound, Bot, LogOut, Menu } from 'lucide-react'
import { Button } from '@/components/ui/button'
import { Separator } from '@/components/ui/separator'
import { Sheet, SheetContent, SheetDescription, SheetTitle, SheetTrigger } from '@/components/ui/sheet'
import { cn } from '@/lib/utils'
import { ROLE_SCOPES } from '@/lib/domain/access'
import { MemberRoleProvider, useMemberRole } from './member-role'
import { NAV_ITEMS } from './nav-items'
import { OrganizationSwitcher, type OrganizationChoice } from './organization-switcher'
import { NoModelBanner, ServerNotice } from './no-model-banner'

function Brand() {
  return (
    <Link
      href="/agents"
      className="flex items-center gap-2 rounded-md font-semibold outline-none focus-visible:ring-[3px] focus-visible:ring-ring/50"
    >
      <span className="flex size-7 items-center justify-center rounded-md bg-primary text-primary-foreground">
        <Bot className="size-4" aria-hidden />
      </span>
      <span className="truncate text-sm">Agent &amp; Datastore</span>
    </Link>
  )
}

function NavLinks({ onNavigate }: { onNavigate?: () => void }) {
  const pathname = usePathname()
  // the pages the member's role can read (the API would answer them 403)
  const scopes = ROLE_SCOPES[useMemberRole()]
  return (
    <nav aria-label="Main" className="grid gap-1">
      {NAV_ITEMS.filter(item => scopes.includes(item.scope)).map(({ href, label, icon: Icon }) => {
        const active = pathname === href || pathname.startsWith(`${href}/`)
        return (
          <Link
            key={href}
            href={href}
            onClick={onNavigate}
            aria-current={active ? 'page' : undefined}
            className={cn(
              'flex h-9 items-center gap-2.5 rounded-md px-2.5 text-sm font-medium text-sidebar-foreground/80 outline-none transition-colors',
              'hover:bg-sidebar-accent hover:text-sidebar-accent-foreground focus-visible:ring-[3px] focus-visible:ring-sidebar-ring/50',
              active && 'bg-sidebar-accent text-sidebar-accent-foreground',
            )}
          >
            <Icon className="size-4 shrink-0" aria-hidden />
            {label}
          </Link>
        )
      })}
    </nav>
  )
}

function UserFooter({ email }: { email: string }) {
  const [pending, setPending] = React.useState(false)
  return (
    <div className="grid gap-2">
      <div className="px-2.5">
        <p className="text-xs text-muted-foreground">Signed in as</p>
        <p className="truncate text-sm font-medium" title={email} data-testid="signed-in-email">
          {email}
        </p>
      </div>
      <Link href="/account" className="flex min-h-9 items-center gap-2 rounded-md px-2.5 text-sm text-muted-foreground hover:bg-accent hover:text-foreground">
        <UserRound className="size-4" aria-hidden />
        Account
      </Link>
      <Link href="/docs/api" className="flex min-h-9 items-center gap-2 rounded-md px-2.5 text-sm text-muted-foreground hover:bg-accent hover:text-foreground">
        <BookOpen className="size-4" aria-hidden />
        API reference
      </Link>
      <Button
        variant="ghost"
        className="justify-start px-2.5"
        disabled={pending}
        onClick={() => {
          setPending(true)
          void signOut({ callbackUrl: '/login' })
        }}
      >
        <LogOut aria-hidden />
        Sign out
      </Button>
    </div>
  )
}

/** Who is signed in, in which organization (with the others they belong to), as which role. */
export interface Membership {
  email: string
  organizationId: string
  organizations: OrganizationChoice[]
}

/** The signed-in frame: a sidebar on wide screens, a top bar with a drawer on phones. */
export function AppShell({ member, notice, children }: { member: Membership; notice?: string | null; children: React.ReactNode }) {
  const [open, setOpen] = React.useState(false)
  const { email } = member
  const role = member.organizations.find(o => o.id === member.organizationId)?.role ?? 'viewer'
  const switcher = <OrganizationSwitcher organizations={member.organizations} currentId={member.organizationId} />

  return (
    <MemberRoleProvider role={role}>
    <div className="flex min-h-dvh">
      <a
        href="#main-content"
        className="sr-only z-50 rounded-md bg-background px-3 py-2 text-sm font-medium shadow focus:not-sr-only focus:fixed focus:top-2 focus:left-2 focus:ring-[3px] focus:ring-ring/50"
      >
        Skip to content
      </a>
      <aside className="sticky top-0 hidden h-dvh w-60 shrink-0 flex-col gap-4 border-r bg-sidebar p-3 md:flex">
        <div className="px-1 pt-1">
          <Brand />
        </div>
        {switcher}
        <div className="flex-1 overflow-y-auto">
          <NavLinks />
        </div>
        <Separator />
        <UserFooter email={email} />
      </aside>

      <div className="flex min-w-0 flex-1 flex-col">
        <header className="sticky top-0 z-40 flex h-14 items-center gap-2 border-b bg-background/95 px-3 backdrop-blur md:hidden">
          <Sheet open={open} onOpenChange={setOpen}>
            <SheetTrigger asChild>
              <Button variant="ghost" size="icon" aria-label="Open navigation">
                <Menu aria-hidden />
              </Button>
            </SheetTrigger>
            <SheetContent className="bg-sidebar p-3">
              <SheetTitle className="sr-only">Navigation</SheetTitle>
              <SheetDescription className="sr-only">Pages of the dashboard</SheetDescription>
              <div className="px-1 pt-1 pr-10">
                <Brand />
              </div>
              {switcher}
              <div className="flex-1 overflow-y-auto">
                <NavLinks onNavigate={() => setOpen(false)} />
              </div>
              <Separator />
              <UserFooter email={email} />
            </SheetContent>
          </Sheet>
          <Brand />
        </header>
        <NoModelBanner />
        <ServerNotice message={notice} />
        <main id="main-content" tabIndex={-1} className="mx-auto w-full max-w-6xl flex-1 px-4 py-6 outline-none sm:px-6 md:py-8 lg:px-8">
          {children}
        </main>
      </div>
    </div>
    </MemberRoleProvider>
  )
}
