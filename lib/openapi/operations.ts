import { z } from 'zod'
import {
  AgentConversationListParams,
  AgentCreateBody,
  AgentDeleteBody,
  AgentQueryBody,
  AgentQueryParams,
  AgentUpdateBody,
  ConversationReadParams,
} from '@/lib/agents/agent-schemas'
import { DatasourceListQuery } from '@/lib/datastores/content-schemas'
import { DataberryQueryBody, DataberryQueryParams } from '@/lib/datastores/databerry-query'
import { DatasourcePatchBody, DatastoreCreateBody, DatastorePatchBody, DatastoreQueryBody, UpsertBody } from '@/lib/datastores/schemas'
import { DeliveryListParams, WebhookCreateBody, WebhookPatchBody } from '@/lib/webhooks/schemas'
import { InboxListParams } from '@/lib/inbox/filters'
import { CONTENT_OPERATIONS, DUPLICATES } from './operations-content'
import { REVIEW_OPERATIONS } from './operations-review'
import { arrayOf, page, schemaRef } from './responses'

// Every operation of the API, with the zod schemas its route validates with (lib/openapi/document.ts turns them into
// OpenAPI 3.1). tests/chaindesk-openapi.test.ts fails when a route file has a method this table lacks.

export type Auth = 'key' | 'agent' | 'conversation' | 'none'

export interface Operation {
  method: 'get' | 'post' | 'patch' | 'delete'
  path: string
  summary: string
  tag: 'Agents' | 'Conversations' | 'Datastores' | 'Datasources' | 'Webhooks' | 'Account' | 'Service'
  /** key: an API key; agent: a key, or none for a public agent; conversation: likewise for a public agent's conversation. */
  auth: Auth
  query?: z.ZodObject
  body?: z.ZodType | 'multipart' | 'json-or-multipart'
  /** The JSON of a success, or `answer` for the agent query (JSON, or an event stream). */
  response: Record<string, unknown> | 'answer'
  status?: 200 | 201 | 202
  /** Chaindesk's other paths for this operation (proxy.ts rewrites them here). */
  aliases?: string[]
  description?: string
}

// The API-key route keeps its schema in its route file; this is the same shape
const ApiKeyCreateBody = z.object({ name: z.string().trim().min(1).max(100) })

const FileParts = {
  type: 'object',
  properties: {
    file: { type: 'string', format: 'binary', description: 'The file, with its MIME type (spec §4.5)' },
    fileName: { type: 'string' },
    custom_id: { type: 'string' },
  },
  required: ['file'],
}
export const MULTIPART_DATASOURCE = { ...FileParts, properties: { ...FileParts.properties, type: { const: 'file' }, datastoreId: { type: 'string' } }, required: ['file', 'type', 'datastoreId'] }
export const MULTIPART_UPLOAD = FileParts

export const OPERATIONS: Operation[] = [
  { method: 'get', path: '/api/agents', summary: "The organization's agents", tag: 'Agents', auth: 'key', response: arrayOf('Agent') },
  { method: 'post', path: '/api/agents', summary: 'Create an agent', tag: 'Agents', auth: 'key', body: AgentCreateBody, response: schemaRef('Agent'), status: 201 },
  {
    method: 'get',
    path: '/api/agents/{id}',
    summary: 'An agent (a public agent without a key: its name, description and public face)',
    tag: 'Agents',
    auth: 'agent',
    response: { oneOf: [schemaRef('Agent'), schemaRef('PublicAgent')] },
    aliases: ['/agents/{id}'],
  },
  { method: 'patch', path: '/api/agents/{id}', summary: 'Update an agent (spec §4.3)', tag: 'Agents', auth: 'key', body: AgentUpdateBody, response: schemaRef('Agent'), aliases: ['/agents/{id}'] },
  { method: 'delete', path: '/api/agents/{id}', summary: 'Delete an agent (spec §4.4)', tag: 'Agents', auth: 'key', body: AgentDeleteBody, response: schemaRef('Agent'), aliases: ['/agents/{id}'] },
  {
    method: 'post',
    path: '/api/agents/{id}/query',
    summary: 'Query an agent (spec §4.2), as JSON or as an event stream',
    tag: 'Agents',
    auth: 'agent',
    query: AgentQueryParams,
    body: AgentQueryBody,
    response: 'answer',
    aliases: ['/agents/{id}/query', '/agents/query/{id}', '/api/agents/query/{id}'],
  },
  {
    method: 'post',
    path: '/api/agents/{id}/visitor-secret',
    summary: 'A new visitor signing secret (answered this once; the previous one stops verifying)',
    description: 'The site signs its visitor ids with it: hex HMAC-SHA256 of "<visitorId>.<expires>" (Unix seconds), sent as visitorId, visitorSignature and visitorExpires in the query body.',
    tag: 'Agents',
    auth: 'key',
    response: { type: 'object', properties: { secret: { type: 'string' }, prefix: { type: 'string' } }, required: ['secret', 'prefix'] },
    status: 201,
  },
  { method: 'get', path: '/api/agents/{id}/conversations', summary: "The agent's latest conversations", tag: 'Conversations', auth: 'key', query: AgentConversationListParams, response: arrayOf('ConversationSummary') },
  {
    method: 'get',
    path: '/api/conversations',
    summary: "The organization's conversations, most recently active first, filtered by agent, channel, dates (started), text, feedback and no/weak sources",
    tag: 'Conversations',
    auth: 'key',
    query: InboxListParams,
    response: page('ConversationSummary'),
  },
  {
    method: 'get',
    path: '/api/conversations/{id}',
    summary: "A conversation with its messages (a public agent's without a key, unless PUBLIC_CONVERSATION_READ=0)",
    tag: 'Conversations',
    auth: 'conversation',
    query: ConversationReadParams,
    response: schemaRef('Conversation'),
  },
  { method: 'get', path: '/api/datastores', summary: "The organization's datastores", tag: 'Datastores', auth: 'key', response: arrayOf('Datastore'), aliases: ['/datastores'] },
  { method: 'post', path: '/api/datastores', summary: 'Create a datastore', tag: 'Datastores', auth: 'key', body: DatastoreCreateBody, response: schemaRef('Datastore'), status: 201, aliases: ['/datastores'] },
  { method: 'get', path: '/api/datastores/{id}', summary: 'A datastore', tag: 'Datastores', auth: 'key', response: schemaRef('Datastore'), aliases: ['/datastores/{id}'] },
  { method: 'patch', path: '/api/datastores/{id}', summary: 'Update a datastore', tag: 'Datastores', auth: 'key', body: DatastorePatchBody, response: schemaRef('Datastore'), aliases: ['/datastores/{id}'] },
  { method: 'delete', path: '/api/datastores/{id}', summary: 'Delete a datastore and its content', tag: 'Datastores', auth: 'key', response: schemaRef('Datastore'), aliases: ['/datastores/{id}'] },
  { method: 'get', path: '/api/datastores/{id}/datasources', summary: "A datastore's datasources, newest first (`topLevel=true`: without a site's pages)", tag: 'Datasources', auth: 'key', query: DatasourceListQuery, response: page('Datasource') },
  {
    method: 'post',
    path: '/api/datastores/{id}/query',
    summary: 'Query a datastore (spec §4.7): ranked fragments',
    tag: 'Datastores',
    auth: 'key',
    body: DatastoreQueryBody,
    response: arrayOf('Fragment'),
    aliases: ['/datastores/{id}/query', '/datastores/query/{id}', '/api/datastores/query/{id}'],
  },
  {
    method: 'post',
    path: '/api/query/{datastoreId}',
    summary: "Databerry's datastore query: {results}, topK from the body or ?topK=, 3 by default",
    description: "What LangChain's ChaindeskRetriever / DataberryRetriever read. Also `POST /query` on a host name whose first label is the datastore id.",
    tag: 'Datastores',
    auth: 'key',
    query: DataberryQueryParams,
    body: DataberryQueryBody,
    response: { type: 'object', properties: { results: arrayOf('Fragment') }, required: ['results'] },
    aliases: ['/query/{datastoreId}'],
  },
  {
    method: 'post',
    path: '/api/datastores/upsert/{datastoreId}',
    summary: 'Upsert documents (spec §4.1)',
    description: 'A new document whose text a datasource of the datastore already holds gets that id in `ids` and is listed in `duplicates` ({index, datasourceId, name}), not indexed again; `?allowDuplicates=true` indexes a copy.',
    tag: 'Datastores',
    auth: 'key',
    body: UpsertBody,
    response: { type: 'object', properties: { ids: { type: 'array', items: { type: 'string' } }, duplicates: { type: 'array', items: { type: 'object' } } }, required: ['ids'] },
    aliases: ['/datastores/upsert/{datastoreId}'],
  },
  { method: 'post', path: '/api/datasources', summary: 'Create a datasource (spec §4.5): JSON (web) or multipart (file)', description: DUPLICATES, tag: 'Datasources', auth: 'key', body: 'json-or-multipart', response: schemaRef('Datasource'), status: 201, aliases: ['/datasources'] },
  { method: 'get', path: '/api/datasources/{id}', summary: 'A datasource', tag: 'Datasources', auth: 'key', response: schemaRef('Datasource'), aliases: ['/datasources/{id}'] },
  { method: 'patch', path: '/api/datasources/{id}', summary: "Update a datasource (name, a web source's refresh and crawl rules)", tag: 'Datasources', auth: 'key', body: DatasourcePatchBody, response: schemaRef('Datasource'), aliases: ['/datasources/{id}'] },
  { method: 'delete', path: '/api/datasources/{id}', summary: 'Delete a datasource', tag: 'Datasources', auth: 'key', response: schemaRef('Datasource'), aliases: ['/datasources/{id}'] },
  { method: 'post', path: '/api/datasources/{id}/synch', summary: 'Synchronise a datasource again', tag: 'Datasources', auth: 'key', response: schemaRef('Datasource'), aliases: ['/datasources/{id}/synch'] },
  { method: 'post', path: '/api/external/datastores/file-upload/{datastoreId}', summary: 'Upload a file (spec §4.6)', description: DUPLICATES, tag: 'Datasources', auth: 'key', body: 'multipart', response: schemaRef('Datasource'), status: 201 },
  { method: 'get', path: '/api/webhooks', summary: "The organization's webhooks", tag: 'Webhooks', auth: 'key', response: { type: 'array', items: { type: 'object' } } },
  { method: 'post', path: '/api/webhooks', summary: 'Create a webhook (answers its signing secret, this once)', tag: 'Webhooks', auth: 'key', body: WebhookCreateBody, response: { type: 'object' }, status: 201 },
  { method: 'get', path: '/api/webhooks/{id}', summary: 'A webhook', tag: 'Webhooks', auth: 'key', response: { type: 'object' } },
  { method: 'patch', path: '/api/webhooks/{id}', summary: 'Update a webhook', tag: 'Webhooks', auth: 'key', body: WebhookPatchBody, response: { type: 'object' } },
  { method: 'delete', path: '/api/webhooks/{id}', summary: 'Delete a webhook', tag: 'Webhooks', auth: 'key', response: { type: 'object' } },
  { method: 'get', path: '/api/webhooks/{id}/deliveries', summary: "A webhook's latest deliveries", tag: 'Webhooks', auth: 'key', query: DeliveryListParams, response: { type: 'array', items: { type: 'object' } } },
  { method: 'post', path: '/api/webhooks/deliveries/{id}/resend', summary: 'Send a delivery again (queued, due now)', tag: 'Webhooks', auth: 'key', response: { type: 'object' }, status: 202 },
  { method: 'get', path: '/api/api-keys', summary: "The organization's API keys", tag: 'Account', auth: 'key', response: arrayOf('ApiKey') },
  { method: 'post', path: '/api/api-keys', summary: 'Create an API key (its secret is shown once)', tag: 'Account', auth: 'key', body: ApiKeyCreateBody, response: schemaRef('ApiKey'), status: 201 },
  { method: 'delete', path: '/api/api-keys/{id}', summary: 'Revoke an API key', tag: 'Account', auth: 'key', response: schemaRef('ApiKey') },
  { method: 'get', path: '/api/usage', summary: "This month's usage and limits", tag: 'Account', auth: 'key', response: { type: 'object' } },
  { method: 'get', path: '/api/health', summary: 'Liveness and database check', tag: 'Service', auth: 'none', response: { type: 'object' } },
  { method: 'get', path: '/api/openapi.json', summary: 'This document', tag: 'Service', auth: 'none', response: { type: 'object' } },
  ...REVIEW_OPERATIONS,
  ...CONTENT_OPERATIONS,
]
