import type { Scope } from './access'

/** What a caller may do: a member's role's scopes, or an API key's scopes and the resources it is limited to. */
export interface Grant {
  scopes: readonly Scope[]
  /** The datastores it may see; absent: all of the organization's. */
  datastoreIds?: readonly string[]
  agentIds?: readonly string[]
}

/** Who is calling, on behalf of which organization. Every service function takes one and scopes its queries by it. */
export interface TenantContext {
  organizationId: string
  actor: { type: 'api_key'; apiKeyId: string } | { type: 'user'; userId: string }
  /** Absent: everything (the service's own callers, scripts). */
  grant?: Grant
}

/** Whether the caller may see this datastore (a key limited to others answers 404 for it, as for an unknown id). */
export function seesDatastore(ctx: TenantContext, datastoreId: string): boolean {
  return !ctx.grant?.datastoreIds || ctx.grant.datastoreIds.includes(datastoreId)
}

export function seesAgent(ctx: TenantContext, agentId: string): boolean {
  return !ctx.grant?.agentIds || ctx.grant.agentIds.includes(agentId)
}

/** A query filter keeping what the caller may see: `{ id: { in: [...] } }` for a limited key, else nothing. */
export const visibleIds = (ids: readonly string[] | undefined) => (ids ? { id: { in: [...ids] } } : {})
