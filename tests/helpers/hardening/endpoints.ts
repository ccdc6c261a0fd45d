import fs from 'node:fs'
import path from 'node:path'
import { apiContracts } from '@/app/api/registry'
import { type Contract, METHODS, type Method } from '@/lib/api/endpoint'
import { WORLD_PASSWORD, type TenantWorld } from './world'

// Every /api endpoint, as the hardening suites drive it: what each is (method, path parameters, who may call it,
// what body it takes) comes from its declaration (app/api/registry.ts); only inputs it accepts are written here, as
// test data. An endpoint that takes a body or query parameters without a valid example here fails the suites.

export { METHODS, type Method }

/** What a path parameter names: a resource of a tenant, or the catch-all's segments. */
export type IdKind = 'datastore' | 'datasource' | 'agent' | 'publicAgent' | 'conversation' | 'message' | 'apiKey' | 'webhook' | 'webhookDelivery' | 'connection' | 'invitation' | 'invitationToken' | 'member' | 'approval' | 'passwordReset' | 'segments'

export interface EndpointSpec {
  file: string
  method: Method
  params: Record<string, IdKind>
  /** key: an API key or same-origin session is required; agent: a public agent answers anyone; none: open. */
  auth: 'key' | 'agent' | 'none'
  body: 'none' | 'json' | 'optional-json' | 'multipart' | 'json-or-multipart'
  /** A body the endpoint accepts, for the given tenant (JSON endpoints). */
  valid?: (w: TenantWorld) => unknown
  /** The parts of a multipart body the endpoint accepts. */
  validForm?: (w: TenantWorld) => Record<string, string | File>
  /** Search parameters the endpoint reads, with accepted values. */
  query?: Record<string, string>
  /** Removes what it names: each request gets a fresh resource. */
  destructive?: boolean
  /** A protocol's endpoint (MCP): a JSON-RPC notification alone is acknowledged with a 202 and no body. */
  protocol?: string
  /** Served to a member's session only (creating or switching organizations, the signed-in user's own account): the owner's session, not its key, succeeds. */
  credentials?: 'session'
}

/** Route files outside the service's API (not in the registry), with the reason. */
export const EXCLUDED: Record<string, string> = {
  'app/api/auth/[...nextauth]/route.ts': "next-auth's own sign-in protocol (CSRF token, redirects; needs Next's request scope): probed over real HTTP by scripts/reliability/http-load.mjs",
}

const file = (name: string) => new File([`hello from ${name}`], `${name}.txt`, { type: 'text/plain' })

const AGENT_FIELDS = (w: TenantWorld) => ({
  description: 'An agent',
  name: 'Helper',
  modelName: 'model_4',
  temperature: 0.5,
  visibility: 'private',
  systemPrompt: 'You help.',
  userPrompt: 'Answer: {query}',
  promptType: 'raw',
  promptTemplate: '{query}',
  datastoreIds: [w.datastoreId],
  // issue 25: loopback addresses, refused when called (TOOLS_ALLOW_PRIVATE_HOSTS is off): nothing leaves the machine
  tools: [
    { type: 'http', name: 'get_order', description: 'An order', method: 'GET', url: 'http://127.0.0.1:9/orders/{id}', headers: { 'X-Api-Key': 'k' }, parameters: { type: 'object', properties: { id: { type: 'string' } }, required: ['id'] } },
    { type: 'mcp', name: 'stock', url: 'http://127.0.0.1:9/mcp', allowedTools: ['check_stock'] },
  ],
})

type Example = Pick<EndpointSpec, 'valid' | 'validForm' | 'query' | 'credentials'>

/** Inputs each endpoint accepts, by `METHOD path`: test data, not a description of the endpoint. */
export const EXAMPLES: Record<string, Example> = {
  'POST /api/agents': { valid: AGENT_FIELDS },
  'PATCH /api/agents/{id}': { valid: AGENT_FIELDS },
  'DELETE /api/agents/{id}': { valid: () => ({}) },
  'POST /api/agents/{id}/query': {
    valid: w => ({
      query: 'What is the warranty?',
      conversationId: w.conversationId,
      visitorId: w.visitorId,
      temperature: 0.2,
      streaming: false,
      modelName: 'model_3_5_turbo',
      maxTokens: 100,
      presencePenalty: 0.5,
      frequencyPenalty: -0.5,
      topP: 0.9,
      filters: { custom_ids: ['c1'], datasource_ids: [w.datasourceId] },
      systemPrompt: 'You help.',
      userPrompt: '{query}',
      promptType: 'customer_support',
      promptTemplate: '{query}',
    }),
    query: { streamEncoding: 'sse' },
  },
  'GET /api/agents/{id}/conversations': { query: { limit: '10' } },
  'GET /api/conversations/{id}': { query: { cursor: '' } },
  'POST /api/query/{datastoreId}': { valid: () => ({ query: 'warranty', topK: 3 }), query: { topK: '2' } },
  'POST /api/api-keys': { valid: () => ({ name: 'ci key' }) },
  'POST /api/datastores': { valid: () => ({ name: 'Docs', description: 'Product docs', visibility: 'private', chunkSize: 512, chunkOverlap: 64 }) },
  'PATCH /api/datastores/{id}': { valid: () => ({ name: 'Docs', description: 'Product docs', visibility: 'public', chunkSize: 256, chunkOverlap: 32 }) },
  'GET /api/datastores/{id}/datasources': { query: { status: 'synched,pending', type: 'text,file', limit: '20', cursor: '', groupId: 'x' } },
  'POST /api/datastores/{id}/query': { valid: w => ({ query: 'warranty', topK: 3, filters: { custom_ids: ['c1'], datasource_ids: [w.datasourceId] } }) },
  'POST /api/datastores/upsert/{datastoreId}': {
    valid: () => ({ documents: [{ text: 'The kettle warranty is two years.', name: 'Kettle', metadata: { source: 'https://example.com/kettle', author: 'me', custom_id: 'c1' } }] }),
    query: { allowDuplicates: 'false' },
  },
  'POST /api/datasources': {
    valid: w => ({ datastoreId: w.datastoreId, type: 'web_page', name: 'Example', config: { source_url: 'https://example.com/' }, custom_id: 'c1' }),
    validForm: w => ({ type: 'file', datastoreId: w.datastoreId, file: file('notes'), fileName: 'notes.txt', custom_id: 'c1' }),
    query: { allowDuplicates: 'false' },
  },
  'PATCH /api/datasources/{id}': { valid: () => ({ name: 'Renamed doc' }) },
  'GET /api/datasources/{id}/chunks': { query: { limit: '10', after: '0' } },
  'POST /api/datastores/{id}/datasources/bulk': { valid: w => ({ action: 'synch', ids: [w.datasourceId] }) },
  'POST /api/external/datastores/file-upload/{datastoreId}': { validForm: () => ({ file: file('upload'), fileName: 'upload.txt', custom_id: 'c1' }), query: { allowDuplicates: 'false' } },
  'POST /api/webhooks': { valid: () => ({ url: 'https://hooks.example.com/in', events: ['datasource.synched', 'site.refreshed'], description: 'CI', enabled: true }) },
  'PATCH /api/webhooks/{id}': { valid: () => ({ url: 'https://hooks.example.com/in', events: ['message.created'], description: null, enabled: false }) },
  'GET /api/webhooks/{id}/deliveries': { query: { limit: '10' } },
  // the token is checked with the world's fake Notion (world.ts)
  'POST /api/connections': { valid: w => ({ provider: 'notion', name: 'Support docs', token: w.notionToken }) },
  'PATCH /api/connections/{id}': { valid: w => ({ name: 'Help center', token: w.notionToken }) },
  // votes, the inbox, the gap queue, usage per day; the world's agent is private
  'POST /api/conversations/{id}/messages/{messageId}/feedback': { valid: w => ({ vote: 'bad', comment: 'Not what I asked', visitorId: w.visitorId }) },
  'POST /api/conversations/eval-answer': { valid: w => ({ messageId: w.answerId, eval: 'good' }) },
  'GET /api/conversations/export': { query: { format: 'csv', channel: 'api', q: 'question', feedback: 'none', sources: 'weak', from: '2020-01-01', to: '2030-12-31', agentId: 'x' } },
  'GET /api/gaps': { query: { agentId: 'x', limit: '10' } },
  'POST /api/gaps/dismiss': { valid: w => ({ messageIds: [w.answerId] }) },
  'POST /api/gaps/answer': { valid: w => ({ messageIds: [w.answerId], datastoreId: w.datastoreId, question: 'What is the warranty?', answer: 'Two years.' }) },
  // the MCP server (issue 25): a JSON-RPC call of one of its tools
  'POST /api/mcp': { valid: w => ({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'search_datastore', arguments: { datastoreId: w.datastoreId, query: 'warranty' } } }) },
  'GET /api/usage/daily': { query: { days: '7', agentId: 'x', channel: 'website' } },
  // the support workflow (issue 23)
  'PATCH /api/conversations/{id}': { valid: () => ({ status: 'HUMAN_REQUESTED', isAiEnabled: false, priority: 'HIGH' }) },
  'POST /api/conversations/{id}/message': { valid: w => ({ message: 'A person here: the warranty is two years.', channel: 'website', visitorId: w.visitorId }) },
  'POST /api/agents/{id}/capture': { valid: w => ({ visitorEmail: 'visitor@example.com', conversationId: w.conversationId, visitorId: w.visitorId }) },
  'GET /api/leads': { query: { agentId: 'x', limit: '10', cursor: '' } },
  'GET /api/leads/export': { query: { agentId: 'x', format: 'csv' } },
  // members, invitations, organizations (issue 24); the accept's {id} is an invitation's token, fresh for each request
  'POST /api/invitations': { valid: () => ({ email: 'new.colleague@example.com', role: 'editor' }) },
  'POST /api/invitations/{id}/accept': { valid: () => ({ name: 'New Colleague', password: 'a long enough password' }) },
  'PATCH /api/members/{userId}': { valid: () => ({ role: 'operator' }) },
  'POST /api/organizations': { valid: () => ({ name: 'Second team' }), credentials: 'session' },
  'POST /api/session/organization': { valid: w => ({ organizationId: w.ctx.organizationId }), credentials: 'session' },
  // issue 25: an operator's decision on a waiting tool call (each request gets a fresh pending approval: probe.ts)
  'POST /api/conversations/{id}/approvals/{approvalId}': { valid: () => ({ decision: 'deny' }) },
  // issue 24: a signed-in user's own account (the same password again, so that the world's stays known), a reset link
  'GET /api/account': { credentials: 'session' },
  'POST /api/account/password': { valid: () => ({ currentPassword: WORLD_PASSWORD, newPassword: WORLD_PASSWORD }), credentials: 'session' },
  'POST /api/password-resets/{token}': { valid: () => ({ password: 'a new password 123' }) },
  // the model server (issue 27)
  'PUT /api/models/map': { valid: () => ({ model_4: 'llama3.1:8b', model_3_5_turbo: null }) },
  'POST /api/models/test': { valid: () => ({ modelName: 'model_4' }) },
  'GET /api/conversations': { query: { limit: '10', cursor: '', agentId: 'x', status: 'HUMAN_REQUESTED', assigneeId: 'none', aiEnabled: 'true' } },
}

/** The resource a path parameter names, read from the path segment before it. */
const ID_KINDS: Record<string, IdKind> = {
  agents: 'agent',
  datastores: 'datastore',
  datasources: 'datasource',
  conversations: 'conversation',
  messages: 'message',
  'api-keys': 'apiKey',
  webhooks: 'webhook',
  deliveries: 'webhookDelivery',
  connections: 'connection',
  invitations: 'invitation',
  members: 'member',
  approvals: 'approval',
  'password-resets': 'passwordReset',
  upsert: 'datastore',
  'file-upload': 'datastore',
  query: 'datastore',
}

function idKinds(apiPath: string): Record<string, IdKind> {
  if (apiPath === '/api/invitations/{id}/accept') return { id: 'invitationToken' }
  const segments = apiPath.split('/')
  const kinds: Record<string, IdKind> = {}
  segments.forEach((s, i) => {
    const name = /^\{(\w+)\}$/.exec(s)?.[1]
    if (name) kinds[name] = ID_KINDS[segments[i - 1]]
  })
  return kinds
}

/** The route file of an API path ("/api/datastores/{id}" → app/api/datastores/[id]/route.ts). */
export const fileOf = (apiPath: string) => `app${apiPath.replace(/\{(\w+)\}/g, '[$1]')}/route.ts`

function specOf(c: Contract): EndpointSpec {
  // a conversation's anonymous reader is a public agent's visitor: the world's conversation is a private agent's
  const auth = c.access === 'public' ? 'none' : c.access.anonymous === 'agent' ? 'agent' : 'key'
  const body = c.form ?? (c.body ? (c.bodyOptional ? 'optional-json' : 'json') : 'none')
  return { file: fileOf(c.path), method: c.method, params: idKinds(c.path), auth, body, destructive: c.method === 'DELETE', protocol: c.protocol, ...EXAMPLES[`${c.method} ${c.path}`] }
}

export const ENDPOINTS: EndpointSpec[] = [
  ...METHODS.map((method): EndpointSpec => ({ file: 'app/api/[...path]/route.ts', method, params: { path: 'segments' }, auth: 'none', body: 'none' })),
  ...apiContracts().map(specOf),
]

const ROOT = path.resolve(import.meta.dirname, '../../..')

/** The route files under app/api, as paths relative to the project root. */
export function routeFiles(dir = path.join(ROOT, 'app/api')): string[] {
  const out: string[] = []
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name)
    if (entry.isDirectory()) out.push(...routeFiles(full))
    else if (entry.name === 'route.ts' || entry.name === 'route.js') out.push(path.relative(ROOT, full))
  }
  return out.sort()
}

type Handler = (req: Request, ctx: { params: Promise<Record<string, string | string[] | undefined>> }) => Promise<Response>
const modules = new Map<string, Promise<Record<string, unknown>>>()

export async function handlerOf(routeFile: string, method: Method): Promise<Handler | undefined> {
  if (!modules.has(routeFile)) modules.set(routeFile, import(/* @vite-ignore */ path.join(ROOT, routeFile)))
  return (await modules.get(routeFile)!)[method] as Handler | undefined
}

/** The URL path of a route file with its parameters filled in ("app/api/datastores/[id]/route.ts" → /api/datastores/x). */
export function urlPath(routeFile: string, params: Record<string, string | string[]>): string {
  const segments = path.dirname(routeFile).split('/').slice(1)
  return (
    '/' +
    segments
      .map(s => {
        const name = /^\[(?:\.\.\.)?(.+)\]$/.exec(s)?.[1]
        if (!name) return s
        const value = params[name]
        return Array.isArray(value) ? value.map(encodeURIComponent).join('/') : encodeURIComponent(value ?? '')
      })
      .join('/')
  )
}

export function describeEndpoint(spec: Pick<EndpointSpec, 'file' | 'method'>): string {
  return `${spec.method} ${'/' + path.dirname(spec.file).split('/').slice(1).join('/')}`
}
