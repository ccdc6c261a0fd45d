import { CircleAlert, CircleCheck, CircleDashed, Clock, Gauge, Loader2, type LucideIcon } from 'lucide-react'
import { cn } from '@/lib/utils'
import { STATUS_LABELS, type DatasourceStatus } from './types'

const STYLES: Record<DatasourceStatus, string> = {
  unsynched: 'border-border bg-muted text-muted-foreground',
  pending: 'border-border bg-background text-foreground',
  running: 'border-sky-200 bg-sky-50 text-sky-800 dark:border-sky-900 dark:bg-sky-950 dark:text-sky-200',
  synched: 'border-emerald-200 bg-emerald-50 text-emerald-800 dark:border-emerald-900 dark:bg-emerald-950 dark:text-emerald-200',
  // red-800 on red-50: 7:1 (the destructive colour on its own tint was 4:1, under WCAG's 4.5:1)
  error: 'border-red-200 bg-red-50 text-red-800 dark:border-red-900 dark:bg-red-950 dark:text-red-200',
  usage_limit_reached: 'border-amber-200 bg-amber-50 text-amber-900 dark:border-amber-900 dark:bg-amber-950 dark:text-amber-100',
}

const ICONS: Record<DatasourceStatus, LucideIcon> = {
  unsynched: CircleDashed,
  pending: Clock,
  running: Loader2,
  synched: CircleCheck,
  error: CircleAlert,
  usage_limit_reached: Gauge,
}

/** A datasource's synchronisation status, in words with a colour and an icon (never colour alone). */
export function DatasourceStatusBadge({ status, className }: { status: DatasourceStatus; className?: string }) {
  const Icon = ICONS[status] ?? CircleDashed
  return (
    <span
      data-status={status}
      className={cn(
        'inline-flex w-fit shrink-0 items-center gap-1 rounded-md border px-2 py-0.5 text-xs font-medium whitespace-nowrap',
        STYLES[status],
        className,
      )}
    >
      <Icon className={cn('size-3', status === 'running' && 'animate-spin')} aria-hidden />
      {STATUS_LABELS[status] ?? status}
    </span>
  )
}
