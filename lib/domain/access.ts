// Who may call an endpoint (DESIGN.md §10): the scopes an API key can hold, and the access rule each endpoint
// declares in its route file. The coming role check (sessions) and key-scope check read the same rule.

/** What an API key may do; a key created without scopes has them all. */
export const SCOPES = [
  'datastores:read',
  'datastores:write',
  'agents:read',
  'agents:write',
  'agents:query',
  'conversations:read',
  'conversations:write',
  'admin',
] as const
export type Scope = (typeof SCOPES)[number]

/**
 * An endpoint's access rule:
 * - `public`: no credentials involved (the health check, the OpenAPI document);
 * - `{ scope }`: an API key or the dashboard's session, allowed `scope`;
 * - `{ scope, anonymous }`: the same, or no credentials at all for a public agent (`agent`) or a public agent's
 *   conversation (`conversation`), which the service function decides.
 * `orScopes`: any one of these also lets the caller in (POST /api/mcp: each of its tools needs its own scope, and the
 * caller is shown the tools its scopes allow).
 */
export type Access = 'public' | { scope: Scope; orScopes?: readonly Scope[]; anonymous?: 'agent' | 'conversation' }

/** Whether the caller's scopes let it call an endpoint of this access rule. */
export function scopesAllow(scopes: readonly Scope[], access: Exclude<Access, 'public'>): boolean {
  return [access.scope, ...(access.orScopes ?? [])].some(scope => scopes.includes(scope))
}

/** A member's role in an organization, each a superset of the next (DESIGN.md §10). */
export const ROLES = ['owner', 'admin', 'editor', 'operator', 'viewer'] as const
export type Role = (typeof ROLES)[number]

const READ: Scope[] = ['datastores:read', 'agents:read', 'conversations:read']

/**
 * What each role may do, as the scopes an endpoint declares: a viewer reads everything but secrets; an operator
 * also asks agents and works the conversations; an editor also changes content and agents; an admin also manages
 * keys, webhooks, members and settings; an owner also the organization itself.
 */
export const ROLE_SCOPES: Record<Role, readonly Scope[]> = {
  viewer: READ,
  operator: [...READ, 'agents:query', 'conversations:write'],
  editor: [...READ, 'agents:query', 'conversations:write', 'datastores:write', 'agents:write'],
  admin: SCOPES,
  owner: SCOPES,
}

/** The lowest role allowed `scope`: what the dashboard says a member needs. */
export function lowestRoleFor(scope: Scope): Role {
  return [...ROLES].reverse().find(role => ROLE_SCOPES[role].includes(scope))!
}
