import { z } from 'zod'
import { ACCEPTED_FILE_TYPES } from '@/lib/domain/file-types'
import { type Contract, type FormBody, pathParams, TAGS, tagOf } from '@/lib/api/endpoint'
import pkg from '@/package.json'

// The OpenAPI 3.1 document of the whole API (GET /api/openapi.json, rendered at /docs/api), generated from the
// endpoints' declarations (app/api/registry.ts): requests from their input schemas (what a caller may send),
// responses from their response schemas (what the service answers: strict objects), the error shapes per status,
// the stream and the aliases. Named resources (`.meta({ id })`) become components.

type Json = Record<string, unknown>

const COMPONENTS = '#/components/schemas/'

/** JSON Schema of a zod schema, its named parts moved into `components` and referenced from there. */
function jsonSchema(schema: z.ZodType, io: 'input' | 'output', components: Record<string, Json>): Json {
  const { $schema: _, $defs, ...rest } = z.toJSONSchema(schema, { io, unrepresentable: 'any', target: 'draft-2020-12' }) as Json & { $defs?: Record<string, Json> }
  const local = (value: Json) => JSON.parse(JSON.stringify(value).replaceAll('"#/$defs/', `"${COMPONENTS}`)) as Json
  for (const [name, def] of Object.entries($defs ?? {})) components[name] ??= local(def)
  return local(rest)
}

const ErrorBody = z
  .strictObject({
    error: z.strictObject({
      code: z.string(),
      message: z.string(),
      details: z.unknown().optional().describe('zod issues on a 400; the limit on a 402 or 413; allowed methods on a 405'),
      id: z.string().optional().describe('Set on a 500: the id in the log'),
      requestId: z.string().optional().describe('The request id (also the x-request-id header): every log line of the request carries it'),
    }),
  })
  .meta({ id: 'Error' })

const FILE_PARTS = {
  type: 'object',
  properties: {
    file: { type: 'string', format: 'binary', description: `The file, with its MIME type (spec §4.5): ${ACCEPTED_FILE_TYPES.join(', ')}` },
    fileName: { type: 'string' },
    custom_id: { type: 'string' },
  },
  required: ['file'],
}
const MULTIPART_DATASOURCE = {
  ...FILE_PARTS,
  properties: { ...FILE_PARTS.properties, type: { const: 'file' }, datastoreId: { type: 'string' } },
  required: ['file', 'type', 'datastoreId'],
}

function formBody(form: FormBody): Json {
  if (form === 'multipart') return { required: true, content: { 'multipart/form-data': { schema: FILE_PARTS } } }
  return {
    required: true,
    content: { 'application/json': { schema: { type: 'object', description: 'A web page or web site: see spec §4.5' } }, 'multipart/form-data': { schema: MULTIPART_DATASOURCE } },
  }
}

function parameters(c: Contract, components: Record<string, Json>): Json[] {
  const inPath = pathParams(c.path).map(name => ({ name, in: 'path', required: true, schema: { type: 'string', maxLength: 128 } }))
  const shape = c.query ? (jsonSchema(c.query, 'input', components) as { properties?: Record<string, Json>; required?: string[] }) : {}
  const inQuery = Object.entries(shape.properties ?? {}).map(([name, schema]) => ({ name, in: 'query', required: shape.required?.includes(name) ?? false, schema }))
  return [...inPath, ...inQuery]
}

function requestBody(c: Contract, components: Record<string, Json>): Json | undefined {
  if (c.form) return formBody(c.form)
  if (!c.body) return undefined
  return { required: !c.bodyOptional, content: { 'application/json': { schema: jsonSchema(c.body, 'input', components) } } }
}

function success(c: Contract, components: Record<string, Json>): Json {
  if (c.download) return { description: c.download.description, content: Object.fromEntries(c.download.mediaTypes.map(t => [t, { schema: { type: 'string', format: 'binary' } }])) }
  const json = { 'application/json': { schema: c.response ? jsonSchema(c.response, 'output', components) : {} } }
  if (c.protocol) return { description: `The ${c.protocol.toUpperCase()} response (JSON-RPC); 202 without a body for notifications alone`, content: json }
  if (!c.stream) return { description: 'Success', content: json }
  return { description: 'JSON, or with `streaming: true` an event stream', content: { ...json, 'text/event-stream': { schema: { type: 'string' }, description: c.stream } } }
}

const error = (description: string) => ({ description, content: { 'application/json': { schema: { $ref: `${COMPONENTS}Error` } } } })

function errors(c: Contract): Json {
  const keyed = c.access !== 'public'
  return {
    ...(c.body || c.query || c.form || pathParams(c.path).length ? { '400': error('Invalid body or parameters (zod issues in details)') } : {}),
    ...(keyed ? { '401': error('Missing, unknown or revoked key') } : {}),
    ...(keyed && c.access !== 'public' && c.access.anonymous === 'agent' ? { '403': error('A public agent refuses the caller: origin_not_allowed (a site outside its allowed domains) or visitor_not_verified') } : {}),
    ...(keyed ? { '404': error('Unknown id, or one of another organization') } : {}),
    ...(c.body || c.form ? { '413': error('Body larger than the limit'), '415': error('Unsupported media type') } : {}),
    ...(c.stream ? { '402': error('Usage limit reached'), '429': error('Rate limited (public agents)'), '502': error('The model failed'), '503': error('No model configured'), '504': error('The model timed out') } : {}),
  }
}

function describe(c: Contract, alias: boolean): string {
  const access = c.access === 'public' ? undefined : `Authorization: Bearer <API key> (scope \`${c.access.scope}\`${c.access.orScopes?.length ? ` or ${c.access.orScopes.map((s: string) => `\`${s}\``).join(' or ')}` : ''}).${c.access.anonymous === 'agent' ? ' No key needed for a public agent.' : c.access.anonymous === 'conversation' ? " No key needed for a public agent's conversation (PUBLIC_CONVERSATION_READ)." : ''}`
  return [c.description, alias ? `Chaindesk's path for ${c.method} ${c.path}: same request and response.` : undefined, access].filter(Boolean).join('\n\n')
}

function operationId(c: Contract, path: string): string {
  return `${c.method.toLowerCase()}${path.replace(/\{(\w+)\}/g, 'By_$1').replace(/[^A-Za-z0-9]+(.)?/g, (_, ch: string | undefined) => (ch ? ch.toUpperCase() : ''))}`
}

function operation(c: Contract, path: string, alias: boolean, components: Record<string, Json>): Json {
  const body = requestBody(c, components)
  return {
    operationId: operationId(c, path),
    summary: alias ? `${c.summary} (alias of ${c.path})` : c.summary,
    description: describe(c, alias),
    tags: [tagOf(c)],
    ...(c.access === 'public' ? { security: [] } : c.access.anonymous ? { security: [{ bearer: [] }, {}] } : {}),
    ...(c.access !== 'public' ? { 'x-scope': c.access.scope } : {}),
    parameters: parameters(c, components),
    ...(body ? { requestBody: body } : {}),
    ...(alias ? { 'x-alias-of': c.path } : {}),
    responses: { [String(c.status ?? 200)]: success(c, components), ...errors(c) },
  }
}

export function openApiDocument(contracts: Contract[]): Json {
  const components: Record<string, Json> = {}
  jsonSchema(ErrorBody, 'output', components)
  const paths: Record<string, Json> = {}
  const add = (path: string, c: Contract, alias: boolean) => {
    paths[path] = { ...(paths[path] ?? {}), [c.method.toLowerCase()]: operation(c, path, alias, components) }
  }
  for (const c of contracts) {
    add(c.path, c, false)
    for (const alias of c.aliases ?? []) add(alias, c, true)
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
    tags: TAGS.map(name => ({ name })),
    paths,
    components: { securitySchemes: { bearer: { type: 'http', scheme: 'bearer', description: 'An API key' } }, schemas: components },
  }
}
