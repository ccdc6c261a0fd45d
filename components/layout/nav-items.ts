import { Activity, Bot, Boxes, Cable, ChartColumn, Contact, Database, Inbox, KeyRound, MessagesSquare, Plug, ScrollText, SearchX, Users, Webhook, type LucideIcon } from 'lucide-react'
import type { Scope } from '@/lib/domain/access'

export interface NavItem {
  href: string
  label: string
  icon: LucideIcon
  /** The scope of the page's API (its list endpoint's): shown to the roles that hold it (ROLE_SCOPES). */
  scope: Scope
}

export const NAV_ITEMS: NavItem[] = [
  { href: '/agents', label: 'Agents', icon: Bot, scope: 'agents:read' },
  { href: '/datastores', label: 'Datastores', icon: Database, scope: 'datastores:read' },
  { href: '/playground', label: 'Playground', icon: MessagesSquare, scope: 'agents:query' },
  { href: '/conversations', label: 'Conversations', icon: Inbox, scope: 'conversations:read' },
  { href: '/leads', label: 'Leads', icon: Contact, scope: 'conversations:read' },
  { href: '/gaps', label: 'Knowledge gaps', icon: SearchX, scope: 'conversations:read' },
  { href: '/api-keys', label: 'API keys', icon: KeyRound, scope: 'admin' },
  { href: '/webhooks', label: 'Webhooks', icon: Webhook, scope: 'admin' },
  { href: '/connections', label: 'Connections', icon: Plug, scope: 'admin' },
  { href: '/connect', label: 'Connect an assistant', icon: Cable, scope: 'admin' },
  { href: '/members', label: 'Members', icon: Users, scope: 'conversations:read' },
  { href: '/usage', label: 'Usage', icon: ChartColumn, scope: 'agents:read' },
  { href: '/audit', label: 'Audit log', icon: ScrollText, scope: 'admin' },
  { href: '/models', label: 'Models', icon: Boxes, scope: 'admin' },
  { href: '/system', label: 'System', icon: Activity, scope: 'admin' },
]
