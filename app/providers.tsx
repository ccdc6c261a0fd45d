'use client'

import * as React from 'react'
import { MutationCache, QueryCache, QueryClient, QueryClientProvider } from '@tanstack/react-query'
import { SessionProvider, signOut } from 'next-auth/react'
import { Toaster } from 'sonner'
import { ApiError } from '@/components/api-client'

let signingOut = false

/**
 * A 401 from the API means the session no longer counts (expired, or its user is gone): drop the cookie, so that the
 * sign-in page does not send us straight back, and return here after signing in again.
 */
function onApiError(error: unknown) {
  if (!(error instanceof ApiError) || error.status !== 401 || typeof window === 'undefined' || signingOut) return
  if (window.location.pathname.startsWith('/login')) return
  signingOut = true
  const here = window.location.pathname + window.location.search
  void signOut({ callbackUrl: `/login?callbackUrl=${encodeURIComponent(here)}` })
}

function makeQueryClient() {
  return new QueryClient({
    queryCache: new QueryCache({ onError: onApiError }),
    mutationCache: new MutationCache({ onError: onApiError }),
    defaultOptions: {
      queries: {
        staleTime: 10_000,
        refetchOnWindowFocus: true,
        // a 4xx will not get better by asking again
        retry: (failures, error) => !(error instanceof ApiError && error.status >= 400 && error.status < 500) && failures < 2,
      },
    },
  })
}

export function Providers({ children }: { children: React.ReactNode }) {
  const [queryClient] = React.useState(makeQueryClient)
  return (
    <SessionProvider>
      <QueryClientProvider client={queryClient}>
        {children}
        {/* at the bottom: at the top right a notice covered the page header's actions (Delete) while shown */}
        <Toaster position="bottom-right" richColors closeButton />
      </QueryClientProvider>
    </SessionProvider>
  )
}
