/** Who is calling, on behalf of which organization. Every service function takes one and scopes its queries by it. */
export interface TenantContext {
  organizationId: string
  actor: { type: 'api_key'; apiKeyId: string } | { type: 'user'; userId: string }
}
