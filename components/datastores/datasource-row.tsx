'use client'

// One datasource of the datasources table: a box to select it, its name (opening it) and source, type, status (with
// the reason of a failure), counts and actions. A web site's row opens to its pages, listed under it.
import * as React from 'react'
import Link from 'next/link'
import { BookOpen, ChevronDown, ChevronRight, FileText, Globe, Link2, NotebookText, Type, type LucideIcon } from 'lucide-react'
import { Timestamp } from '@/components/layout/timestamp'
import { Button } from '@/components/ui/button'
import { Checkbox } from '@/components/ui/checkbox'
import { TableCell, TableRow } from '@/components/ui/table'
import { Tooltip, TooltipContent, TooltipTrigger } from '@/components/ui/tooltip'
import { HAS_CHILDREN } from '@/lib/domain/datasources'
import { REFRESHABLE, type RefreshInterval } from '@/lib/domain/refresh'
import { cn } from '@/lib/utils'
import { DeleteDatasourceButton, ResyncDatasourceButton } from './datasource-actions'
import { DatasourceRefresh } from './datasource-refresh'
import { DatasourceStatusBadge } from './datasource-status-badge'
import { OcrProgress } from './ocr-progress'
import { STATUS_LABELS, TYPE_LABELS, type Datasource, type DatasourceType } from './types'

const TYPE_ICONS: Record<DatasourceType, LucideIcon> = { file: FileText, web_page: Link2, web_site: Globe, text: Type, notion: BookOpen, notion_page: NotebookText }

/** Columns of the table, also the colSpan of a row spanning them. */
export const DATASOURCE_COLUMNS = 8

function sourceOf(ds: Datasource): string | null {
  const c = ds.config ?? {}
  const value = c.source_url ?? c.sitemap ?? c.url ?? (ds.metadata?.source as unknown)
  return typeof value === 'string' ? value : null
}

function isHttp(url: string) {
  return /^https?:\/\//i.test(url)
}

function ErrorReason({ datasource, expanded, onToggle }: { datasource: Datasource; expanded: boolean; onToggle: () => void }) {
  const badge = <DatasourceStatusBadge status={datasource.status} />
  if (!datasource.errorMessage) return badge
  return (
    <Tooltip>
      <TooltipTrigger asChild>
        <button
          type="button"
          onClick={onToggle}
          aria-expanded={expanded}
          aria-label={`${STATUS_LABELS[datasource.status]}: ${expanded ? 'hide' : 'show'} the reason`}
          className="inline-flex items-center gap-0.5 rounded-md outline-none focus-visible:ring-[3px] focus-visible:ring-ring/50"
        >
          {badge}
          {expanded ? <ChevronDown className="size-3.5 text-muted-foreground" aria-hidden /> : <ChevronRight className="size-3.5 text-muted-foreground" aria-hidden />}
        </button>
      </TooltipTrigger>
      <TooltipContent side="top">{datasource.errorMessage}</TooltipContent>
    </Tooltip>
  )
}

function NameCell({ ds, siteName, open, onOpenChange }: { ds: Datasource; siteName?: string; open?: boolean; onOpenChange?: (open: boolean) => void }) {
  const Icon = TYPE_ICONS[ds.type] ?? FileText
  const source = sourceOf(ds)
  return (
    <div className="flex items-start gap-1.5">
      {onOpenChange ? (
        <Button
          variant="ghost"
          size="icon"
          className="-my-1 size-7 shrink-0"
          aria-expanded={open}
          aria-label={`${open ? 'Hide' : 'Show'} the pages of ${ds.name}`}
          onClick={() => onOpenChange(!open)}
        >
          {open ? <ChevronDown aria-hidden /> : <ChevronRight aria-hidden />}
        </Button>
      ) : (
        <Icon className="mt-0.5 size-4 shrink-0 text-muted-foreground" aria-hidden />
      )}
      <div className="min-w-0">
        <Link
          href={`/datastores/${ds.datastoreId}/datasources/${ds.id}`}
          // at least 24 px tall: WCAG 2.2's target size (the name alone was an 18 px target)
          className="inline-block min-h-6 py-0.5 font-medium [overflow-wrap:anywhere] underline-offset-4 hover:underline"
          data-testid="datasource-name"
        >
          {ds.name}
        </Link>
        {source && source !== ds.name && (
          <div className="line-clamp-2 text-xs [overflow-wrap:anywhere] text-muted-foreground" title={source}>
            {isHttp(source) ? (
              <a href={source} target="_blank" rel="noopener noreferrer" className="inline-block min-h-6 py-1 underline-offset-4 hover:underline">
                {source}
              </a>
            ) : (
              source
            )}
          </div>
        )}
        {siteName && <div className="text-xs [overflow-wrap:anywhere] text-muted-foreground">Page of {siteName}</div>}
        {ds.nbChildren !== undefined && <div className="text-xs text-muted-foreground">{ds.nbChildren.toLocaleString()} pages</div>}
        {ds.custom_id && (
          <div className="text-xs [overflow-wrap:anywhere] text-muted-foreground">
            custom_id <code className="font-mono">{ds.custom_id}</code>
          </div>
        )}
      </div>
    </div>
  )
}

export function DatasourceRow({
  ds,
  siteName,
  inheritedRefresh = 'off',
  selected,
  onSelect,
  nested = false,
  open,
  onOpenChange,
}: {
  ds: Datasource
  siteName?: string
  inheritedRefresh?: RefreshInterval
  selected: boolean
  onSelect: (selected: boolean) => void
  /** A page listed under its site. */
  nested?: boolean
  /** A site's pages shown under it. */
  open?: boolean
  onOpenChange?: (open: boolean) => void
}) {
  const [expanded, setExpanded] = React.useState(false)
  const group = HAS_CHILDREN[ds.type]
  return (
    <>
      <TableRow data-testid="datasource-row" data-status={ds.status} data-name={ds.name} data-state={selected ? 'selected' : undefined} className={cn(nested && 'bg-muted/20')}>
        <TableCell className={cn('w-9 py-2.5 pr-0 pl-3 align-top', nested && 'pl-6')}>
          <Checkbox checked={selected} onCheckedChange={v => onSelect(v === true)} aria-label={`Select ${ds.name}`} className="mt-0.5" />
        </TableCell>
        <TableCell className={cn('py-2.5 pl-2 whitespace-normal', nested && 'pl-4')}>
          <NameCell ds={ds} siteName={siteName} open={open} onOpenChange={group ? onOpenChange : undefined} />
        </TableCell>
        <TableCell className="hidden text-muted-foreground md:table-cell">{TYPE_LABELS[ds.type] ?? ds.type}</TableCell>
        <TableCell className="w-[6.5rem] align-top sm:w-auto">
          <ErrorReason datasource={ds} expanded={expanded} onToggle={() => setExpanded(e => !e)} />
          <OcrProgress ds={ds} />
        </TableCell>
        <TableCell className="hidden text-right tabular-nums sm:table-cell">{ds.nbChunks.toLocaleString()}</TableCell>
        <TableCell className="hidden text-right tabular-nums lg:table-cell">{ds.nbTokens.toLocaleString()}</TableCell>
        <TableCell className="hidden text-muted-foreground lg:table-cell">
          {ds.lastSynch ? <Timestamp iso={ds.lastSynch} relative /> : 'never'}
          {/* a site's pages are refreshed with their site */}
          {REFRESHABLE[ds.type] && !ds.groupId && <DatasourceRefresh ds={ds} inherited={inheritedRefresh} />}
        </TableCell>
        <TableCell className="w-[4.75rem] pr-2 text-right align-top sm:w-auto sm:pr-3">
          <div className="flex justify-end gap-0.5">
            <ResyncDatasourceButton datasource={ds} />
            <DeleteDatasourceButton datasource={ds} />
          </div>
        </TableCell>
      </TableRow>
      {expanded && ds.errorMessage && (
        <TableRow className="bg-muted/30 hover:bg-muted/30">
          <TableCell colSpan={DATASOURCE_COLUMNS} className="py-2 pl-10 whitespace-normal">
            <p role="note" className="text-sm [overflow-wrap:anywhere] text-red-800 dark:text-red-300" data-testid="datasource-error">
              {ds.errorMessage}
            </p>
          </TableCell>
        </TableRow>
      )}
    </>
  )
}
