import { formatDate, formatDateTime, formatRelative } from '@/components/format'

/** A time as a date ("Nov 25, 2026") or relative ("3 minutes ago"), with the exact date and time on hover. */
export function Timestamp({ iso, relative = false }: { iso: string; relative?: boolean }) {
  return (
    <time dateTime={iso} title={formatDateTime(iso)}>
      {relative ? formatRelative(iso) : formatDate(iso)}
    </time>
  )
}
