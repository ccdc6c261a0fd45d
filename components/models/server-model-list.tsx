'use client'

import { useQuery } from '@tanstack/react-query'
import { Boxes } from 'lucide-react'
import { LoadError, loadFailed } from '@/components/layout/query-states'
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card'
import { Skeleton } from '@/components/ui/skeleton'
import { getServerModels, serverModelsQueryKey } from './models-api'

/** The server's own model list (GET /v1/models of OPENAI_BASE_URL). */
export function ServerModelList() {
  const query = useQuery({ queryKey: serverModelsQueryKey, queryFn: getServerModels, retry: false })
  return (
    <Card className="gap-4">
      <CardHeader>
        <CardTitle className="flex items-center gap-2 text-base">
          <Boxes className="size-4 text-muted-foreground" aria-hidden /> Models on the server
        </CardTitle>
        <CardDescription>
          {query.data ? (
            <>
              What <code className="font-mono text-xs">{query.data.endpoint}</code> serves.
            </>
          ) : (
            'What the model server serves.'
          )}
        </CardDescription>
      </CardHeader>
      <CardContent>
        {query.isPending && <Skeleton className="h-16 w-full" />}
        {loadFailed(query) && <LoadError query={query} />}
        {query.data && query.data.models.length === 0 && <p className="text-sm text-muted-foreground">The server lists no model.</p>}
        {query.data && query.data.models.length > 0 && (
          <ul className="flex flex-wrap gap-2" aria-label="Models on the server">
            {query.data.models.map(m => (
              <li key={m.id} data-testid="server-model" className="rounded-md border px-2 py-1 font-mono text-xs">
                {m.id}
              </li>
            ))}
          </ul>
        )}
      </CardContent>
    </Card>
  )
}
