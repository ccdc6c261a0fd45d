import fs from 'node:fs'
import path from 'node:path'
import type { TenantWorld } from './world'

// Every /api endpoint, as the hardening suites drive it. The route files are enumerated from the file system
// (app/api/**/route.ts): a new file, or a new method in one, fails the suites until it is described here.

export const METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'] as const
export type Method = (typeof METHODS)[number]

/** What a path parameter names: a resource of a tenant, or the catch-all's segments. */
export type IdKind = 'datastore' | 'datasource' | 'agent' | 'publicAgent' | 'conversation' | 'message' | 'apiKey' | 'webhook' | 'webhookDelivery' | 'segments'

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
}

/** Route files outside the service's API (not described below), with the reason. */
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
})

export const ENDPOINTS: EndpointSpec[] = [
  ...METHODS.map((method): EndpointSpec => ({ file: 'app/api/[...path]/route.ts', method, params: { path: 'segments' }, auth: 'none', body: 'none' })),
  { file: 'app/api/agents/route.ts', method: 'GET', params: {}, auth: 'key', body: 'none' },
  { file: 'app/api/agents/route.ts', method: 'POST', params: {}, auth: 'key', body: 'json', valid: AGENT_FIELDS },
  { file: 'app/api/agents/[id]/route.ts', method: 'GET', params: { id: 'agent' }, auth: 'agent', body: 'none' },
  { file: 'app/api/agents/[id]/route.ts', method: 'PATCH', params: { id: 'agent' }, auth: 'key', body: 'json', valid: AGENT_FIELDS },
  { file: 'app/api/agents/[id]/route.ts', method: 'DELETE', params: { id: 'agent' }, auth: 'key', body: 'optional-json', valid: () => ({}), destructive: true },
  {
    file: 'app/api/agents/[id]/query/route.ts',
    method: 'POST',
    params: { id: 'agent' },
    auth: 'agent',
    body: 'json',
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
  },
  { file: 'app/api/agents/[id]/visitor-secret/route.ts', method: 'POST', params: { id: 'agent' }, auth: 'key', body: 'none' },
  { file: 'app/api/agents/[id]/conversations/route.ts', method: 'GET', params: { id: 'agent' }, auth: 'key', body: 'none', query: { limit: '10' } },
  // a public agent's conversation is readable without a key (PUBLIC_CONVERSATION_READ); the world's is a private agent's
  { file: 'app/api/conversations/[id]/route.ts', method: 'GET', params: { id: 'conversation' }, auth: 'key', body: 'none', query: { cursor: '' } },
  { file: 'app/api/conversations/route.ts', method: 'GET', params: {}, auth: 'key', body: 'none', query: { limit: '10', cursor: '', agentId: 'x' } },
  {
    file: 'app/api/query/[datastoreId]/route.ts',
    method: 'POST',
    params: { datastoreId: 'datastore' },
    auth: 'key',
    body: 'json',
    valid: () => ({ query: 'warranty', topK: 3 }),
    query: { topK: '2' },
  },
  { file: 'app/api/openapi.json/route.ts', method: 'GET', params: {}, auth: 'none', body: 'none' },
  { file: 'app/api/api-keys/route.ts', method: 'GET', params: {}, auth: 'key', body: 'none' },
  { file: 'app/api/api-keys/route.ts', method: 'POST', params: {}, auth: 'key', body: 'json', valid: () => ({ name: 'ci key' }) },
  { file: 'app/api/api-keys/[id]/route.ts', method: 'DELETE', params: { id: 'apiKey' }, auth: 'key', body: 'none', destructive: true },
  { file: 'app/api/datastores/route.ts', method: 'GET', params: {}, auth: 'key', body: 'none' },
  {
    file: 'app/api/datastores/route.ts',
    method: 'POST',
    params: {},
    auth: 'key',
    body: 'json',
    valid: () => ({ name: 'Docs', description: 'Product docs', visibility: 'private', chunkSize: 512, chunkOverlap: 64 }),
  },
  { file: 'app/api/datastores/[id]/route.ts', method: 'GET', params: { id: 'datastore' }, auth: 'key', body: 'none' },
  {
    file: 'app/api/datastores/[id]/route.ts',
    method: 'PATCH',
    params: { id: 'datastore' },
    auth: 'key',
    body: 'json',
    valid: () => ({ name: 'Docs', description: 'Product docs', visibility: 'public', chunkSize: 256, chunkOverlap: 32 }),
  },
  { file: 'app/api/datastores/[id]/route.ts', method: 'DELETE', params: { id: 'datastore' }, auth: 'key', body: 'none', destructive: true },
  {
    file: 'app/api/datastores/[id]/datasources/route.ts',
    method: 'GET',
    params: { id: 'datastore' },
    auth: 'key',
    body: 'none',
    query: { status: 'synched,pending', type: 'text,file', limit: '20', cursor: '', groupId: 'x' },
  },
  {
    file: 'app/api/datastores/[id]/query/route.ts',
    method: 'POST',
    params: { id: 'datastore' },
    auth: 'key',
    body: 'json',
    valid: w => ({ query: 'warranty', topK: 3, filters: { custom_ids: ['c1'], datasource_ids: [w.datasourceId] } }),
  },
  {
    file: 'app/api/datastores/upsert/[datastoreId]/route.ts',
    method: 'POST',
    params: { datastoreId: 'datastore' },
    auth: 'key',
    body: 'json',
    valid: () => ({ documents: [{ text: 'The kettle warranty is two years.', name: 'Kettle', metadata: { source: 'https://example.com/kettle', author: 'me', custom_id: 'c1' } }] }),
  },
  {
    file: 'app/api/datasources/route.ts',
    method: 'POST',
    params: {},
    auth: 'key',
    body: 'json-or-multipart',
    valid: w => ({ datastoreId: w.datastoreId, type: 'web_page', name: 'Example', config: { source_url: 'https://example.com/' }, custom_id: 'c1' }),
    validForm: w => ({ type: 'file', datastoreId: w.datastoreId, file: file('notes'), fileName: 'notes.txt', custom_id: 'c1' }),
  },
  { file: 'app/api/datasources/[id]/route.ts', method: 'GET', params: { id: 'datasource' }, auth: 'key', body: 'none' },
  { file: 'app/api/datasources/[id]/route.ts', method: 'PATCH', params: { id: 'datasource' }, auth: 'key', body: 'json', valid: () => ({ name: 'Renamed doc' }) },
  { file: 'app/api/datasources/[id]/route.ts', method: 'DELETE', params: { id: 'datasource' }, auth: 'key', body: 'none', destructive: true },
  { file: 'app/api/datasources/[id]/synch/route.ts', method: 'POST', params: { id: 'datasource' }, auth: 'key', body: 'none' },
  { file: 'app/api/datasources/[id]/chunks/route.ts', method: 'GET', params: { id: 'datasource' }, auth: 'key', body: 'none', query: { limit: '10', after: '0' } },
  { file: 'app/api/datasources/[id]/text/route.ts', method: 'GET', params: { id: 'datasource' }, auth: 'key', body: 'none' },
  { file: 'app/api/datasources/[id]/original/route.ts', method: 'GET', params: { id: 'datasource' }, auth: 'key', body: 'none' },
  {
    file: 'app/api/datastores/[id]/datasources/bulk/route.ts',
    method: 'POST',
    params: { id: 'datastore' },
    auth: 'key',
    body: 'json',
    valid: w => ({ action: 'synch', ids: [w.datasourceId] }),
  },
  {
    file: 'app/api/external/datastores/file-upload/[datastoreId]/route.ts',
    method: 'POST',
    params: { datastoreId: 'datastore' },
    auth: 'key',
    body: 'multipart',
    validForm: () => ({ file: file('upload'), fileName: 'upload.txt', custom_id: 'c1' }),
  },
  { file: 'app/api/health/route.ts', method: 'GET', params: {}, auth: 'none', body: 'none' },
  { file: 'app/api/webhooks/route.ts', method: 'GET', params: {}, auth: 'key', body: 'none' },
  { file: 'app/api/webhooks/route.ts', method: 'POST', params: {}, auth: 'key', body: 'json', valid: () => ({ url: 'https://hooks.example.com/in', events: ['datasource.synched', 'site.refreshed'], description: 'CI', enabled: true }) },
  { file: 'app/api/webhooks/[id]/route.ts', method: 'GET', params: { id: 'webhook' }, auth: 'key', body: 'none' },
  { file: 'app/api/webhooks/[id]/route.ts', method: 'PATCH', params: { id: 'webhook' }, auth: 'key', body: 'json', valid: () => ({ url: 'https://hooks.example.com/in', events: ['message.created'], description: null, enabled: false }) },
  { file: 'app/api/webhooks/[id]/route.ts', method: 'DELETE', params: { id: 'webhook' }, auth: 'key', body: 'none', destructive: true },
  { file: 'app/api/webhooks/[id]/deliveries/route.ts', method: 'GET', params: { id: 'webhook' }, auth: 'key', body: 'none', query: { limit: '10' } },
  { file: 'app/api/webhooks/deliveries/[id]/resend/route.ts', method: 'POST', params: { id: 'webhookDelivery' }, auth: 'key', body: 'none' },
  { file: 'app/api/usage/route.ts', method: 'GET', params: {}, auth: 'key', body: 'none' },
  // votes, the inbox, the gap queue, usage per day (issues 14.6 and 15); the world's agent is private
  {
    file: 'app/api/conversations/[id]/messages/[messageId]/feedback/route.ts',
    method: 'POST',
    params: { id: 'conversation', messageId: 'message' },
    auth: 'key',
    body: 'json',
    valid: w => ({ vote: 'bad', comment: 'Not what I asked', visitorId: w.visitorId }),
  },
  { file: 'app/api/conversations/eval-answer/route.ts', method: 'POST', params: {}, auth: 'key', body: 'json', valid: w => ({ messageId: w.answerId, eval: 'good' }) },
  { file: 'app/api/conversations/[id]/messages/route.ts', method: 'GET', params: { id: 'conversation' }, auth: 'key', body: 'none' },
  {
    file: 'app/api/conversations/export/route.ts',
    method: 'GET',
    params: {},
    auth: 'key',
    body: 'none',
    query: { format: 'csv', channel: 'api', q: 'question', feedback: 'none', sources: 'weak', from: '2020-01-01', to: '2030-12-31', agentId: 'x' },
  },
  { file: 'app/api/gaps/route.ts', method: 'GET', params: {}, auth: 'key', body: 'none', query: { agentId: 'x', limit: '10' } },
  { file: 'app/api/gaps/dismiss/route.ts', method: 'POST', params: {}, auth: 'key', body: 'json', valid: w => ({ messageIds: [w.answerId] }) },
  {
    file: 'app/api/gaps/answer/route.ts',
    method: 'POST',
    params: {},
    auth: 'key',
    body: 'json',
    valid: w => ({ messageIds: [w.answerId], datastoreId: w.datastoreId, question: 'What is the warranty?', answer: 'Two years.' }),
  },
  { file: 'app/api/usage/daily/route.ts', method: 'GET', params: {}, auth: 'key', body: 'none', query: { days: '7', agentId: 'x', channel: 'website' } },
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
