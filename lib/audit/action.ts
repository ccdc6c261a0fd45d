// What an audit entry calls a change, derived from the endpoint that made it (lib/api/endpoint.ts): the resource is
// the path's last collection ("/api/datastores/{id}" → datastore), the verb the method (created, updated, deleted),
// or the path's action segment ("/api/datasources/{id}/synch" → datasource.synch).

const RESOURCES: Record<string, string> = {
  account: 'account',
  agents: 'agent',
  'api-keys': 'api_key',
  connections: 'connection',
  conversations: 'conversation',
  datasources: 'datasource',
  datastores: 'datastore',
  deliveries: 'webhook_delivery',
  gaps: 'gap',
  invitations: 'invitation',
  members: 'member',
  organizations: 'organization',
  messages: 'message',
  webhooks: 'webhook',
}
const VERBS: Record<string, string> = { POST: 'created', PUT: 'updated', PATCH: 'updated', DELETE: 'deleted' }

export interface AuditedChange {
  action: string
  targetType: string
}

/** The action of a mutating request to `path` (a template), or null for reads. */
export function auditAction(method: string, path: string): AuditedChange | null {
  const verb = VERBS[method]
  if (!verb) return null
  const segments = path.replace(/^\/api\//, '').split('/').filter(s => !s.startsWith('{'))
  const resourceAt = segments.findLastIndex(s => s in RESOURCES)
  const targetType = resourceAt >= 0 ? RESOURCES[segments[resourceAt]] : segments[0].replace(/-/g, '_')
  const after = segments.slice(resourceAt + 1).filter(s => !(s in RESOURCES))
  const action = after.length ? after.join('_').replace(/-/g, '_') : verb
  return { action: `${targetType}.${action}`, targetType }
}
