import { z } from 'zod'
import pkg from '@/package.json'
import { MULTIPART_DATASOURCE, MULTIPART_UPLOAD, OPERATIONS, type Auth, type Operation } from './operations'
import { RESPONSE_SCHEMAS, schemaRef } from './responses'

// The OpenAPI 3.1 document of the whole API (GET /api/openapi.json, rendered at /docs/api): the request schemas
// generated from the routes' own zod schemas (input side: what a caller may send), the stream format, the aliases.

type Json = Record<string, unknown>

const jsonSchema = (schema: z.ZodType): Json => {
  const { $schema: _, ...rest } = z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any', target: 'draft-2020-12' }) as Json
  return rest
}

const STREAM_DESCRIPTION = [
  'With `streaming: true`: `Content-Type: text/event-stream` exactly. `event: answer` events carry pieces of the answer',
  '(concatenated, they are the answer), then `event: endpoint_response` carries the JSON of the whole answer, then',
  '`data: [DONE]`. A failure after the stream opened is `data: [ERROR]<message>` and ends the stream.',
  '',
  'Encodings: by default (`sse`) the data is plain text, a piece with line breaks is several `data:` lines (joined',
  'with "\\n" as the SSE standard says), and no event data begins with a line break. The `chaindesk` encoding,',
  "Chaindesk's own: each answer and endpoint_response payload percent-encoded (encodeURIComponent) on one `data:` line,",
  'the markers raw. It is served when the body carries `channel` (Chaindesk\'s widget and dashboard send it), or when',
  'asked with the body field `streamEncoding` or the query parameter `?streamEncoding=` (which win).',
].join('\n')

const AUTH_NOTE: Record<Auth, string> = {
  key: '',
  none: '',
  agent: ' No key needed for a public agent.',
  conversation: " No key needed for a public agent's conversation (PUBLIC_CONVERSATION_READ).",
}

function parameters(op: Operation, path: string): Json[] {
  const inPath = [...path.matchAll(/\{(\w+)\}/g)].map(m => ({ name: m[1], in: 'path', required: true, schema: { type: 'string' } }))
  const shape = op.query ? (jsonSchema(op.query) as { properties?: Record<string, Json>; required?: string[] }) : {}
  const inQuery = Object.entries(shape.properties ?? {}).map(([name, schema]) => ({ name, in: 'query', required: shape.required?.includes(name) ?? false, schema }))
  return [...inPath, ...inQuery]
}

function requestBody(op: Operation): Json | undefined {
  if (!op.body) return undefined
  if (op.body === 'multipart') return { required: true, content: { 'multipart/form-data': { schema: MULTIPART_UPLOAD } } }
  if (op.body === 'json-or-multipart') {
    return { required: true, content: { 'application/json': { schema: { type: 'object', description: 'JSON form: see spec §4.5' } }, 'multipart/form-data': { schema: MULTIPART_DATASOURCE } } }
  }
  return { required: op.method !== 'delete', content: { 'application/json': { schema: jsonSchema(op.body) } } }
}

function success(op: Operation): Json {
  if (op.response === 'answer') {
    return {
      description: 'The answer: JSON, or with `streaming: true` an event stream',
      content: {
        'application/json': { schema: schemaRef('AgentAnswer') },
        'text/event-stream': { schema: { type: 'string' }, description: STREAM_DESCRIPTION },
      },
    }
  }
  return { description: 'Success', content: { 'application/json': { schema: op.response } } }
}

const error = (description: string) => ({ description, content: { 'application/json': { schema: schemaRef('Error') } } })

function operation(op: Operation, path: string, alias: boolean): Json {
  const id = `${op.method}${path.replace(/\{(\w+)\}/g, 'By_$1').replace(/[^A-Za-z0-9]+(.)?/g, (_, c: string | undefined) => (c ? c.toUpperCase() : ''))}`
  return {
    operationId: id,
    summary: alias ? `${op.summary} (alias of ${op.path})` : op.summary,
    description: [op.description, alias ? `Chaindesk's path for ${op.method.toUpperCase()} ${op.path}: same request and response.` : undefined, op.auth === 'none' ? undefined : `Authorization: Bearer <API key>.${AUTH_NOTE[op.auth]}`]
      .filter(Boolean)
      .join('\n\n'),
    tags: [op.tag],
    ...(op.auth === 'key' ? {} : { security: op.auth === 'none' ? [] : [{ bearer: [] }, {}] }),
    parameters: parameters(op, path),
    ...(requestBody(op) ? { requestBody: requestBody(op) } : {}),
    ...(alias ? { 'x-alias-of': op.path } : {}),
    responses: {
      [String(op.status ?? 200)]: success(op),
      ...(op.body || op.query ? { '400': error('Invalid body or parameters (zod issues in details)') } : {}),
      ...(op.auth === 'none' ? {} : { '401': error('Missing or unknown key'), '404': error('Unknown id, or one of another organization') }),
      ...(op.auth === 'agent' ? { '403': error('A public agent refuses the caller: origin_not_allowed (a site outside its allowed domains) or visitor_not_verified') } : {}),
      ...(op.response === 'answer' ? { '402': error('Usage limit reached'), '429': error('Rate limited (public agents)') } : {}),
    },
  }
}

export function openApiDocument(): Json {
  const paths: Record<string, Json> = {}
  const add = (path: string, op: Operation, alias: boolean) => {
    paths[path] = { ...(paths[path] ?? {}), [op.method]: operation(op, path, alias) }
  }
  for (const op of OPERATIONS) {
    add(op.path, op, false)
    for (const alias of op.aliases ?? []) add(alias, op, true)
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'Agent & Datastore Service API',
      version: pkg.version,
      description: "Chaindesk-compatible agents and datastores. Paths without /api are Chaindesk's forms, rewritten to the /api ones for API requests (a Bearer key or a JSON body).",
    },
    jsonSchemaDialect: 'https://json-schema.org/draft/2020-12/schema',
    servers: [{ url: '/' }],
    security: [{ bearer: [] }],
    tags: ['Agents', 'Conversations', 'Datastores', 'Datasources', 'Webhooks', 'Account', 'Service'].map(name => ({ name })),
    paths,
    components: { securitySchemes: { bearer: { type: 'http', scheme: 'bearer', description: 'An API key' } }, schemas: RESPONSE_SCHEMAS },
  }
}
