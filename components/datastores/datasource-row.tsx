'use client'

// One datasource of the datasources table: its name and source, type, status (with the reason of a failure), counts
// and actions.
import * as React from 'react'
import { ChevronDown, ChevronRight, FileText, Globe, Link2, Type, type LucideIcon } from 'lucide-react'
import { Timestamp } from '@/components/layout/timestamp'
import { TableCell, TableRow } from '@/components/ui/table'
import { Tooltip, TooltipContent, TooltipTrigger } from '@/components/ui/tooltip'
import { REFRESHABLE, type RefreshInterval } from '@/lib/domain/refresh'
import { DeleteDatasourceButton, ResyncDatasourceButton } from './datasource-actions'
import { DatasourceRefresh } from './datasource-refresh'
import { DatasourceStatusBadge } from './datasource-status-badge'
import { STATUS_LABELS, TYPE_LABELS, type Datasource, type DatasourceType } from './types'

const TYPE_ICONS: Record<DatasourceType, LucideIcon> = { file: FileText, web_page: Link2, web_site: Globe, text: Type }

function sourceOf(ds: Datasource): string | null {
  const c = ds.config ?? {}
  const value = c.source_url ?? c.sitemap ?? (ds.metadata?.source as unknown)
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

export function DatasourceRow({ ds, siteName, inheritedRefresh = 'off' }: { ds: Datasource; siteName?: string; inheritedRefresh?: RefreshInterval }) {
  const [expanded, setExpanded] = React.useState(false)
  const Icon = TYPE_ICONS[ds.type] ?? FileText
  const source = sourceOf(ds)
  return (
    <>
      <TableRow data-testid="datasource-row" data-status={ds.status} data-name={ds.name}>
        <TableCell className="max-w-[18rem] py-2.5 pl-4 whitespace-normal">
          <div className="flex items-start gap-2">
            <Icon className="mt-0.5 size-4 shrink-0 text-muted-foreground" aria-hidden />
            <div className="min-w-0">
              <div className="font-medium break-words" data-testid="datasource-name">
                {ds.name}
              </div>
              {source && source !== ds.name && (
                <div className="truncate text-xs text-muted-foreground" title={source}>
                  {isHttp(source) ? (
                    <a href={source} target="_blank" rel="noopener noreferrer" className="underline-offset-4 hover:underline">
                      {source}
                    </a>
                  ) : (
                    source
                  )}
                </div>
              )}
              {siteName && <div className="text-xs text-muted-foreground">Page of {siteName}</div>}
              {ds.custom_id && (
                <div className="text-xs text-muted-foreground">
                  custom_id <code className="font-mono">{ds.custom_id}</code>
                </div>
              )}
            </div>
          </div>
        </TableCell>
        <TableCell className="hidden text-muted-foreground md:table-cell">{TYPE_LABELS[ds.type] ?? ds.type}</TableCell>
        <TableCell>
          <ErrorReason datasource={ds} expanded={expanded} onToggle={() => setExpanded(e => !e)} />
        </TableCell>
        <TableCell className="hidden text-right tabular-nums sm:table-cell">{ds.nbChunks.toLocaleString()}</TableCell>
        <TableCell className="hidden text-right tabular-nums lg:table-cell">{ds.nbTokens.toLocaleString()}</TableCell>
        <TableCell className="hidden text-muted-foreground lg:table-cell">
          {ds.lastSynch ? <Timestamp iso={ds.lastSynch} relative /> : 'never'}
          {/* a site's pages are refreshed with their site */}
          {REFRESHABLE[ds.type] && !ds.groupId && <DatasourceRefresh ds={ds} inherited={inheritedRefresh} />}
        </TableCell>
        <TableCell className="pr-2 text-right sm:pr-3">
          <div className="flex justify-end gap-0.5">
            <ResyncDatasourceButton datasource={ds} />
            <DeleteDatasourceButton datasource={ds} />
          </div>
        </TableCell>
      </TableRow>
      {expanded && ds.errorMessage && (
        <TableRow className="bg-muted/30 hover:bg-muted/30">
          <TableCell colSpan={7} className="py-2 pl-10 whitespace-normal">
            <p role="note" className="text-sm text-destructive" data-testid="datasource-error">
              {ds.errorMessage}
            </p>
          </TableCell>
        </TableRow>
      )}
    </>
  )
}
