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
 */
export type Access = 'public' | { scope: Scope; anonymous?: 'agent' | 'conversation' }
