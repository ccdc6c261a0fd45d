'use client'

// A refresh interval picked from the named ones (and a custom number of hours kept as it is); optionally "the
// datastore's" (null) for a datasource.
import { REFRESH_NAMES, type RefreshInterval } from '@/lib/domain/refresh'
import { cn } from '@/lib/utils'

const LABELS: Record<(typeof REFRESH_NAMES)[number], string> = { off: 'Off', hourly: 'Hourly', daily: 'Daily', weekly: 'Weekly' }
const INHERIT = 'inherit'

export function refreshLabel(interval: RefreshInterval): string {
  return typeof interval === 'number' ? `Every ${interval} h` : LABELS[interval]
}

export function RefreshSelect({
  id,
  value,
  onChange,
  inherited,
  disabled,
  className,
  label,
}: {
  id: string
  value: RefreshInterval | null
  onChange: (value: RefreshInterval | null) => void
  /** When given, a first option follows the datastore's interval (null), named with it when known. */
  inherited?: RefreshInterval | true
  disabled?: boolean
  className?: string
  label?: string
}) {
  const custom = typeof value === 'number' && !REFRESH_NAMES.some(n => n === String(value)) ? value : null
  return (
    <select
      id={id}
      aria-label={label}
      disabled={disabled}
      value={value === null ? INHERIT : String(value)}
      onChange={e => {
        const v = e.target.value
        onChange(v === INHERIT ? null : /^\d+$/.test(v) ? Number(v) : (v as RefreshInterval))
      }}
      className={cn(
        'h-9 rounded-md border border-input bg-transparent px-2 text-sm shadow-xs outline-none focus-visible:ring-[3px] focus-visible:ring-ring/50 disabled:opacity-50',
        className,
      )}
    >
      {inherited !== undefined && (
        <option value={INHERIT}>{inherited === true ? 'Datastore default' : `Datastore default (${refreshLabel(inherited).toLowerCase()})`}</option>
      )}
      {REFRESH_NAMES.map(n => (
        <option key={n} value={n}>
          {LABELS[n]}
        </option>
      ))}
      {custom !== null && <option value={String(custom)}>{refreshLabel(custom)}</option>}
    </select>
  )
}
