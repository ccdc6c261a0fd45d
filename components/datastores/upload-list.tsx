'use client'

// The uploads of the dropzone, each followed past its upload to the end of its sync: "Syncing", then "Synced" or
// "Error" with the reason, as the table shows it ("Duplicate of …" when the datastore already held the file). The
// list scrolls within a bounded height, so many uploads never push the table below the fold.
import { useQuery } from '@tanstack/react-query'
import { CircleAlert, CircleCheck, Copy, FileUp, Loader2 } from 'lucide-react'
import { Progress } from '@/components/ui/progress'
import { cn } from '@/lib/utils'
import { getDatasource } from './datastores-api'
import { ACTIVE_STATUSES, datasourcesQueryKey, type Datasource } from './types'
import { formatBytes } from './upload-files'

export type UploadState = 'queued' | 'uploading' | 'done' | 'failed' | 'refused'

export interface UploadItem {
  key: string
  name: string
  size: number
  state: UploadState
  progress: number
  message?: string
  /** Once uploaded: the datasource made (or, for a duplicate, the one holding the same file). */
  datasource?: Datasource
  duplicate?: boolean
}

const FOLLOW_MS = 1500

type Shown = { text: string; tone: 'busy' | 'ok' | 'bad' | 'idle' | 'info'; detail?: string; sync?: string }

function shownOf(item: UploadItem, live: Datasource | undefined): Shown {
  if (item.state === 'queued') return { text: 'Waiting', tone: 'idle' }
  if (item.state === 'uploading') return { text: `${Math.round(item.progress * 100)}%`, tone: 'busy' }
  if (item.state === 'failed') return { text: 'Upload failed', tone: 'bad', detail: item.message }
  if (item.state === 'refused') return { text: 'Refused', tone: 'bad', detail: item.message }
  const ds = live ?? item.datasource
  if (item.duplicate && ds) return { text: `Duplicate of “${ds.name}”`, tone: 'info', detail: 'The datastore already holds this file; it was not indexed again.', sync: ds.status }
  if (!ds || ACTIVE_STATUSES.includes(ds.status) || ds.status === 'unsynched') return { text: 'Syncing', tone: 'busy', sync: ds?.status }
  if (ds.status === 'synched') return { text: 'Synced', tone: 'ok', sync: ds.status }
  return { text: ds.status === 'error' ? 'Error' : 'Limit reached', tone: 'bad', detail: ds.errorMessage ?? undefined, sync: ds.status }
}

function ToneIcon({ tone }: { tone: Shown['tone'] }) {
  if (tone === 'ok') return <CircleCheck className="size-4 shrink-0 text-emerald-700" aria-hidden />
  if (tone === 'bad') return <CircleAlert className="size-4 shrink-0 text-red-700" aria-hidden />
  if (tone === 'busy') return <Loader2 className="size-4 shrink-0 animate-spin text-muted-foreground" aria-hidden />
  if (tone === 'info') return <Copy className="size-4 shrink-0 text-muted-foreground" aria-hidden />
  return <FileUp className="size-4 shrink-0 text-muted-foreground" aria-hidden />
}

function UploadRow({ item }: { item: UploadItem }) {
  const id = item.datasource?.id
  const follow = useQuery({
    queryKey: [...datasourcesQueryKey(item.datasource?.datastoreId ?? ''), 'upload', id],
    queryFn: ({ signal }) => getDatasource(id!, signal),
    enabled: !!id && !item.duplicate,
    refetchInterval: q => (!q.state.data || ACTIVE_STATUSES.includes(q.state.data.status) ? FOLLOW_MS : false),
  })
  const shown = shownOf(item, follow.data)
  return (
    <li data-testid="upload-item" data-state={item.state} data-sync={shown.sync} className="rounded-lg border px-3 py-2">
      <div className="flex items-center gap-2">
        <ToneIcon tone={shown.tone} />
        <span className="min-w-0 flex-1 truncate text-sm font-medium" title={item.name}>
          {item.name}
        </span>
        <span className="shrink-0 text-xs text-muted-foreground tabular-nums max-sm:hidden">{formatBytes(item.size)}</span>
        <span
          data-testid="upload-status"
          className={cn('max-w-[55%] shrink-0 truncate text-xs', shown.tone === 'bad' ? 'text-red-700 dark:text-red-300' : 'text-muted-foreground')}
          title={shown.text}
        >
          {shown.text}
        </span>
      </div>
      {(item.state === 'uploading' || item.state === 'queued') && (
        <Progress value={item.progress * 100} className="mt-2 h-1.5" aria-label={`Upload of ${item.name}`} />
      )}
      {shown.detail && (
        <p className={cn('mt-1 text-xs [overflow-wrap:anywhere]', shown.tone === 'bad' ? 'text-red-700 dark:text-red-300' : 'text-muted-foreground')}>{shown.detail}</p>
      )}
    </li>
  )
}

export function UploadList({ items }: { items: UploadItem[] }) {
  return (
    // a scrolling region is focusable, so a keyboard can scroll it too
    <ul className="grid max-h-52 gap-2 overflow-y-auto pr-1" aria-label="Uploads" tabIndex={0} data-testid="upload-list">
      {items.map(item => (
        <UploadRow key={item.key} item={item} />
      ))}
    </ul>
  )
}
