import { Badge } from '@/components/ui/badge'

/** "public" or "private", as agents and datastores show it. */
export function VisibilityBadge({ visibility }: { visibility: 'public' | 'private' }) {
  return (
    <Badge variant={visibility === 'public' ? 'secondary' : 'outline'} className="capitalize">
      {visibility}
    </Badge>
  )
}
