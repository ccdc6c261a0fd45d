'use client'

import { useQuery } from '@tanstack/react-query'
import { PageHeader } from '@/components/layout/page-header'
import { LoadError, loadFailed } from '@/components/layout/query-states'
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card'
import { Skeleton } from '@/components/ui/skeleton'
import { readAccount } from './account-api'
import { PasswordChangeForm } from './password-change-form'

/** The signed-in user's account: who they are here, and their password. */
export function AccountView() {
  const query = useQuery({ queryKey: ['account'], queryFn: readAccount })
  return (
    <>
      <PageHeader title="Account" description="Your sign-in and your role in this organization." />
      {loadFailed(query) && <LoadError query={query} />}
      {query.isPending && <Skeleton className="h-32 w-full max-w-xl" />}
      {query.data && (
          <div className="grid gap-6">
            <Card>
              <CardContent className="pt-6">
                <dl className="grid grid-cols-[auto_1fr] gap-x-6 gap-y-2 text-sm">
                  <dt className="text-muted-foreground">Email</dt>
                  <dd data-testid="account-email">{query.data.email}</dd>
                  <dt className="text-muted-foreground">Organization</dt>
                  <dd>{query.data.organization.name}</dd>
                  <dt className="text-muted-foreground">Role</dt>
                  <dd data-testid="account-role">{query.data.role}</dd>
                </dl>
              </CardContent>
            </Card>
            <Card>
              <CardHeader>
                <CardTitle>
                  <h2>Password</h2>
                </CardTitle>
              </CardHeader>
              <CardContent>
                <PasswordChangeForm email={query.data.email} />
              </CardContent>
            </Card>
          </div>
      )}
    </>
  )
}
