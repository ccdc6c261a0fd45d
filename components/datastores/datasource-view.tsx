'use client'

// One datasource opened: what it is (status, counts, source), its chunks with where each comes from (page, sheet,
// slide), the text extracted from its original, and a download of that original.
import * as React from 'react'
import { useInfiniteQuery, useQuery } from '@tanstack/react-query'
import { useRouter } from 'next/navigation'
import { Download, FileText } from 'lucide-react'
import { HAS_ORIGINAL } from '@/lib/domain/datasources'
import { countOf } from '@/components/format'
import { DetailFrame, DetailTitle } from '@/components/layout/detail-frame'
import { EmptyState } from '@/components/layout/empty-state'
import { PendingButton } from '@/components/layout/pending-button'
import { useErrorToast } from '@/components/layout/query-states'
import { Timestamp } from '@/components/layout/timestamp'
import { Badge } from '@/components/ui/badge'
import { Button } from '@/components/ui/button'
import { Skeleton } from '@/components/ui/skeleton'
import { Tabs, TabsContent, TabsList, TabsTrigger } from '@/components/ui/tabs'
import { locationOf } from './chunk-location'
import { DeleteDatasourceButton, ResyncDatasourceButton } from './datasource-actions'
import { DatasourceStatusBadge } from './datasource-status-badge'
import { OcrProgress } from './ocr-progress'
import { getDatasource, getExtractedText, listChunks, originalDownloadUrl } from './datastores-api'
import { LIVE_REFRESH_MS } from './use-datasource-pages'
import { ACTIVE_STATUSES, datasourcesQueryKey, TYPE_LABELS } from './types'

const CHUNK_PAGE = 50

function Chunks({ datastoreId, id, live }: { datastoreId: string; id: string; live: boolean }) {
  const query = useInfiniteQuery({
    queryKey: [...datasourcesQueryKey(datastoreId), 'view', id, 'chunks'],
    initialPageParam: null as number | null,
    queryFn: ({ pageParam, signal }) => listChunks(id, { limit: CHUNK_PAGE, after: pageParam }, signal),
    getNextPageParam: last => last.nextAfter,
    refetchInterval: live ? LIVE_REFRESH_MS : false,
  })
  useErrorToast(query.error, `chunks-error-${id}`, 'the chunks')
  const items = query.data?.pages.flatMap(p => p.items) ?? []
  if (query.isPending) return <Skeleton className="h-32 w-full" />
  if (items.length === 0) {
    return (
      <EmptyState icon={FileText} title="No chunks yet">
        Chunks appear here once the datasource is synced.
      </EmptyState>
    )
  }
  return (
    <div className="grid min-w-0 gap-3">
      <p className="text-sm text-muted-foreground">{countOf(query.data?.pages[0]?.total ?? items.length, 'chunk')}, in order</p>
      <ol className="grid min-w-0 grid-cols-1 gap-3" aria-label="Chunks">
        {items.map(chunk => {
          const where = locationOf(chunk.metadata)
          return (
            <li key={chunk.id} data-testid="chunk" className="min-w-0 rounded-lg border p-3">
              <div className="mb-2 flex flex-wrap items-center gap-2 text-xs text-muted-foreground">
                <span className="font-medium text-foreground">#{chunk.position + 1}</span>
                {where && (
                  <Badge variant="outline" data-testid="chunk-location">
                    {where}
                  </Badge>
                )}
                <span>{countOf(chunk.tokens, 'token')}</span>
              </div>
              <p className="text-sm whitespace-pre-wrap [overflow-wrap:anywhere]">{chunk.text}</p>
            </li>
          )
        })}
      </ol>
      {query.hasNextPage && (
        <PendingButton variant="outline" size="sm" className="w-fit justify-self-center" onClick={() => void query.fetchNextPage()} pending={query.isFetchingNextPage}>
          Show more chunks
        </PendingButton>
      )}
    </div>
  )
}

// text recognition runs only in the sync worker, never when the original is read again here
const RECOGNISED_NOTE = 'Text recognised in images (OCR) is not read again here: it is in the chunks.'

function ExtractedText({ datastoreId, id, recognised }: { datastoreId: string; id: string; recognised: boolean }) {
  const query = useQuery({ queryKey: [...datasourcesQueryKey(datastoreId), 'view', id, 'text'], queryFn: ({ signal }) => getExtractedText(id, signal) })
  useErrorToast(query.error, `text-error-${id}`, 'the text')
  if (query.isPending) return <Skeleton className="h-32 w-full" />
  const sections = query.data?.sections
  if (!sections) return <p className="text-sm text-muted-foreground">A web page keeps no original: its text is in its chunks.</p>
  if (sections.length === 0) return <p className="text-sm text-muted-foreground">{recognised ? RECOGNISED_NOTE : 'No text could be read from the original.'}</p>
  return (
    <div className="grid min-w-0 grid-cols-1 gap-4">
      {recognised && <p className="text-sm text-muted-foreground">{RECOGNISED_NOTE}</p>}
      {sections.map((s, i) => (
        <section key={i} className="min-w-0" aria-label={locationOf(s.metadata) ?? `Part ${i + 1}`}>
          {locationOf(s.metadata) && <h3 className="mb-1 text-xs font-medium text-muted-foreground">{locationOf(s.metadata)}</h3>}
          <p className="text-sm whitespace-pre-wrap [overflow-wrap:anywhere]">{s.text}</p>
        </section>
      ))}
      {query.data?.truncated && <p className="text-sm text-muted-foreground">The text is cut here; the chunks hold all of it.</p>}
    </div>
  )
}

export function DatasourceView({ datastoreId, id }: { datastoreId: string; id: string }) {
  const query = useQuery({
    queryKey: [...datasourcesQueryKey(datastoreId), 'view', id],
    queryFn: ({ signal }) => getDatasource(id, signal),
    refetchInterval: q => (q.state.data && ACTIVE_STATUSES.includes(q.state.data.status) ? LIVE_REFRESH_MS : false),
  })
  const ds = query.data
  const live = !!ds && ACTIVE_STATUSES.includes(ds.status)
  const router = useRouter()
  return (
    <DetailFrame
      query={query}
      what="the datasource"
      toastId={`datasource-error-${id}`}
      back={{ href: `/datastores/${datastoreId}`, label: 'Datastore' }}
      notFound={{ icon: FileText, title: 'This datasource does not exist' }}
    >
      <div className="mb-6 grid min-w-0 gap-2">
        <DetailTitle title={ds?.name} skeletonClassName="h-8 w-64" />
        {ds && (
          <div className="flex flex-wrap items-center gap-2 text-sm text-muted-foreground">
            <DatasourceStatusBadge status={ds.status} />
            <Badge variant="outline">{TYPE_LABELS[ds.type]}</Badge>
            <span>
              {countOf(ds.nbChunks, 'chunk')} · {countOf(ds.nbTokens, 'token')}
            </span>
            {ds.lastSynch && (
              <span>
                synced <Timestamp iso={ds.lastSynch} relative />
              </span>
            )}
            <OcrProgress ds={ds} className="text-sm text-muted-foreground" />
          </div>
        )}
        {ds?.errorMessage && (
          <p role="note" className="text-sm [overflow-wrap:anywhere] text-red-800 dark:text-red-300">
            {ds.errorMessage}
          </p>
        )}
        {ds && (
          <div className="flex flex-wrap items-center gap-2">
            {HAS_ORIGINAL[ds.type] && (
              <Button asChild variant="outline" size="sm">
                <a href={originalDownloadUrl(ds.id)} download>
                  <Download aria-hidden />
                  Download the original
                </a>
              </Button>
            )}
            <ResyncDatasourceButton datasource={ds} />
            <DeleteDatasourceButton datasource={ds} onDeleted={() => router.push(`/datastores/${datastoreId}`)} />
          </div>
        )}
      </div>
      {ds && (
        <Tabs defaultValue="chunks" className="min-w-0">
          <TabsList aria-label="Datasource content">
            <TabsTrigger value="chunks">Chunks</TabsTrigger>
            <TabsTrigger value="text">Extracted text</TabsTrigger>
          </TabsList>
          <TabsContent value="chunks" className="min-w-0">
            <Chunks datastoreId={datastoreId} id={ds.id} live={live} />
          </TabsContent>
          <TabsContent value="text" className="min-w-0">
            <ExtractedText datastoreId={datastoreId} id={ds.id} recognised={ds.ocrPages !== null} />
          </TabsContent>
        </Tabs>
      )}
    </DetailFrame>
  )
}
