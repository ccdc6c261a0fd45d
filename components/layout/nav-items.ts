import { Activity, Bot, Boxes, Cable, ChartColumn, Contact, Database, Inbox, KeyRound, MessagesSquare, Plug, ScrollText, SearchX, Webhook, type LucideIcon } from 'lucide-react'

export interface NavItem {
  href: string
  label: string
  icon: LucideIcon
}

export const NAV_ITEMS: NavItem[] = [
  { href: '/agents', label: 'Agents', icon: Bot },
  { href: '/datastores', label: 'Datastores', icon: Database },
  { href: '/playground', label: 'Playground', icon: MessagesSquare },
  { href: '/conversations', label: 'Conversations', icon: Inbox },
  { href: '/leads', label: 'Leads', icon: Contact },
  { href: '/gaps', label: 'Knowledge gaps', icon: SearchX },
  { href: '/api-keys', label: 'API keys', icon: KeyRound },
  { href: '/webhooks', label: 'Webhooks', icon: Webhook },
  { href: '/connections', label: 'Connections', icon: Plug },
  { href: '/connect', label: 'Connect an assistant', icon: Cable },
  { href: '/usage', label: 'Usage', icon: ChartColumn },
  { href: '/audit', label: 'Audit log', icon: ScrollText },
  { href: '/models', label: 'Models', icon: Boxes },
  { href: '/system', label: 'System', icon: Activity },
]
