'use client'

// The datasources table's heading: its count, the live-refresh note while something syncs, "retry failed", and the
// status and type filters.
import { Loader2 } from 'lucide-react'
import { Label } from '@/components/ui/label'
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '@/components/ui/select'
import { RetryFailedButton } from './bulk-actions'
import { DATASOURCE_STATUSES, DATASOURCE_TYPES, STATUS_LABELS, TYPE_LABELS, type DatasourceStatus, type DatasourceType } from './types'

/** A filter's "no filter" value. */
export const ALL = 'all'

export interface DatasourceFilters {
  status: DatasourceStatus | typeof ALL
  type: DatasourceType | typeof ALL
}

function FilterSelect<T extends string>({
  id,
  label,
  value,
  onChange,
  options,
}: {
  id: string
  label: string
  value: T | typeof ALL
  onChange: (v: T | typeof ALL) => void
  options: { value: T; label: string }[]
}) {
  return (
    <div className="flex items-center gap-2">
      <Label htmlFor={id} className="text-muted-foreground">
        {label}
      </Label>
      <Select value={value} onValueChange={v => onChange(v as T | typeof ALL)}>
        <SelectTrigger id={id} size="sm" className="min-w-[7rem] sm:min-w-[8.5rem]">
          <SelectValue />
        </SelectTrigger>
        <SelectContent>
          <SelectItem value={ALL}>All</SelectItem>
          {options.map(o => (
            <SelectItem key={o.value} value={o.value}>
              {o.label}
            </SelectItem>
          ))}
        </SelectContent>
      </Select>
    </div>
  )
}

export function DatasourcesToolbar({
  datastoreId,
  total,
  active,
  changedAt,
  filters,
  onFiltersChange,
}: {
  datastoreId: string
  /** How many datasources match, once known. */
  total: number | undefined
  /** How many of the listed ones are syncing. */
  active: number
  /** When the list last changed (RetryFailedButton asks again then). */
  changedAt: number
  filters: DatasourceFilters
  onFiltersChange: (filters: DatasourceFilters) => void
}) {
  return (
    <div className="flex flex-col gap-3 sm:flex-row sm:items-center sm:justify-between">
      <div className="flex items-center gap-2">
        <h2 id="datasources-heading" className="text-base font-semibold">
          Datasources
        </h2>
        {total !== undefined && <span className="text-sm text-muted-foreground tabular-nums">{total.toLocaleString()}</span>}
        {active > 0 && (
          <span className="inline-flex items-center gap-1 text-xs text-muted-foreground" role="status" data-testid="live-refresh">
            <Loader2 className="size-3 animate-spin" aria-hidden />
            {active} syncing, updating live
          </span>
        )}
      </div>
      <div className="flex flex-wrap items-center gap-3">
        <RetryFailedButton datastoreId={datastoreId} changedAt={changedAt} />
        <FilterSelect
          id="datasource-status-filter"
          label="Status"
          value={filters.status}
          onChange={status => onFiltersChange({ ...filters, status })}
          options={DATASOURCE_STATUSES.map(s => ({ value: s, label: STATUS_LABELS[s] }))}
        />
        <FilterSelect
          id="datasource-type-filter"
          label="Type"
          value={filters.type}
          onChange={type => onFiltersChange({ ...filters, type })}
          options={DATASOURCE_TYPES.map(t => ({ value: t, label: TYPE_LABELS[t] }))}
        />
      </div>
    </div>
  )
}
