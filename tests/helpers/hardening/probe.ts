import { randomBytes } from 'node:crypto'
import { parseSse } from '../agents'
import { expectErrorBody } from '../http'
import { describeEndpoint, handlerOf, urlPath, type EndpointSpec, type IdKind, type Method } from './endpoints'
import { renderJson, type IdChoice, type Probe } from './inputs'
import { changes, snapshot } from './snapshot'
import { freshResource, sessionHeaders, type TenantWorld } from './world'

// Sends a probe to an endpoint's handler as Next would (a real Request) and checks the answer: never a 5xx; a 4xx
// carries the JSON error body and wrote nothing; a 2xx is JSON (or an event stream).

export interface Answer {
  status: number
  contentType: string
  /** Content-Disposition: an attachment is a download (GET /api/datasources/{id}/original), any bytes. */
  disposition?: string
  text: string
  json: any
  ms: number
}

export interface ProbeStats {
  tried: number
  byStatus: Record<string, number>
  serverErrors: string[]
  byEndpoint: Record<string, number>
}

export const stats: ProbeStats = { tried: 0, byStatus: {}, serverErrors: [], byEndpoint: {} }

const FIELD: Record<Exclude<IdKind, 'segments'>, keyof TenantWorld> = {
  datastore: 'datastoreId',
  datasource: 'datasourceId',
  agent: 'agentId',
  publicAgent: 'publicAgentId',
  conversation: 'conversationId',
  message: 'answerId',
  apiKey: 'spareKeyId',
  webhook: 'webhookId',
  webhookDelivery: 'webhookDeliveryId',
  connection: 'connectionId',
  invitation: 'invitationId',
  invitationToken: 'invitationToken',
  member: 'memberUserId',
  approval: 'approvalId',
  passwordReset: 'passwordResetToken',
}

async function resolveId(kind: IdKind, choice: IdChoice, spec: EndpointSpec, own: TenantWorld, other: TenantWorld): Promise<string | string[]> {
  if (choice.tag === 'raw') return kind === 'segments' ? choice.value.split('\u0001SEP\u0001') : choice.value
  if (kind === 'segments') return ['nothing', 'here']
  if (choice.tag === 'missing') return `cm${randomBytes(11).toString('hex')}`
  if (choice.tag === 'other') return other[FIELD[kind]] as string
  // an invitation's token and a reset link work once: every request gets a fresh one
  if (kind === 'invitationToken' || kind === 'passwordReset') return freshResource(own, kind)
  // a decision is made once: each request decides a fresh pending approval of the world's conversation
  if (kind === 'approval') return freshResource(own, 'approval')
  if (spec.destructive && kind !== 'publicAgent' && kind !== 'conversation' && kind !== 'message' && kind !== 'webhookDelivery') return freshResource(own, kind)
  return own[FIELD[kind]] as string
}

const safe = (s: string) => (s as string & { toWellFormed(): string }).toWellFormed()

async function bodyOf(probe: Probe): Promise<{ body?: BodyInit; contentType?: string }> {
  const b = probe.body
  if (b === undefined || typeof b === 'string' || b instanceof Uint8Array) return { body: b as BodyInit | undefined }
  const form = new FormData()
  const parts = 'form' in b ? b.form : b.truncatedForm
  for (const [k, v] of Object.entries(parts)) form.append(k, v)
  if ('form' in b) return { body: form }
  const req = new Request('http://localhost/', { method: 'POST', body: form })
  const bytes = new Uint8Array(await req.arrayBuffer())
  let contentType = req.headers.get('content-type')!
  if (b.mangle === 'boundary') contentType = 'multipart/form-data; boundary=not-the-boundary'
  if (b.mangle === 'no-boundary') contentType = 'multipart/form-data'
  return { body: bytes.subarray(0, b.cut % Math.max(1, bytes.length)), contentType }
}

/** The probe's path parameters: own/other/missing ids resolved against the two tenants (fresh ones when destructive). */
export async function resolveParams(spec: EndpointSpec, probe: Probe, own: TenantWorld, other: TenantWorld): Promise<Record<string, string | string[]>> {
  const params: Record<string, string | string[]> = {}
  for (const [name, kind] of Object.entries(spec.params)) params[name] = await resolveId(kind, probe.params[name] ?? { tag: 'own' }, spec, own, other)
  return params
}

/** The credentials with which the world's owner is served: its API key, or its session for the endpoints that take a session only. */
export async function ownerCredentials(spec: EndpointSpec, own: TenantWorld): Promise<Record<string, string>> {
  return spec.credentials === 'session' ? sessionHeaders(own) : own.headers
}

/** Sends the probe with its resolved parameters and the given credentials. */
export async function send(spec: EndpointSpec, probe: Probe, params: Record<string, string | string[]>, auth: Record<string, string>): Promise<{ answer: Answer; url: string }> {
  const search = new URLSearchParams(Object.entries(probe.search).map(([k, v]) => [safe(k), safe(v)])).toString()
  const url = `http://localhost${urlPath(spec.file, Object.fromEntries(Object.entries(params).map(([k, v]) => [k, Array.isArray(v) ? v.map(safe) : safe(v)])))}${search ? `?${search}` : ''}`
  const headers = new Headers(auth)
  const { body, contentType } = spec.method === 'GET' ? {} : await bodyOf(probe)
  for (const [k, v] of Object.entries(probe.headers)) headers.set(k, v)
  if (contentType) headers.set('content-type', contentType)
  const handler = await handlerOf(spec.file, spec.method)
  if (!handler) throw new Error(`${spec.file} exports no ${spec.method}`)
  const started = performance.now()
  const req = new Request(url, { method: spec.method, headers, body })
  const res = await Promise.race([
    handler(req, { params: Promise.resolve(params) }),
    new Promise<never>((_, reject) => setTimeout(() => reject(new Error('no answer within 20 s')), 20_000).unref()),
  ])
  const text = await res.text()
  let json: any
  try {
    json = text ? JSON.parse(text) : undefined
  } catch {}
  return { answer: { status: res.status, contentType: res.headers.get('content-type') ?? '', disposition: res.headers.get('content-disposition') ?? undefined, text, json, ms: performance.now() - started }, url }
}

export function record(spec: Pick<EndpointSpec, 'file' | 'method'>, answer: Answer, label: string) {
  stats.tried++
  stats.byStatus[answer.status] = (stats.byStatus[answer.status] ?? 0) + 1
  const name = describeEndpoint(spec)
  stats.byEndpoint[name] = (stats.byEndpoint[name] ?? 0) + 1
  if (answer.status >= 500) stats.serverErrors.push(`${name} [${label}] → ${answer.status} ${answer.text.slice(0, 200)}`)
}

/** Sends a probe and checks the answer; throws (with the probe and the answer) when a rule is broken. */
export async function probeEndpoint(spec: EndpointSpec, probe: Probe, own: TenantWorld, other: TenantWorld, auth: Record<string, string> = own.headers): Promise<Answer> {
  // a destructive request gets a fresh target before the snapshot, so creating it does not count as its write
  const params = await resolveParams(spec, probe, own, other)
  const before = await snapshot()
  const { answer, url } = await send(spec, probe, params, auth)
  record(spec, answer, probe.label)
  const where = `${describeEndpoint(spec)} [${probe.label}] ${url.slice(0, 200)} → ${answer.status} ${answer.text.slice(0, 300)}`
  if (answer.status >= 500) throw new Error(`5xx: ${where}`)
  if (answer.status >= 400) {
    try {
      expectErrorBody(answer.json)
    } catch (error) {
      throw new Error(`not the JSON error body: ${where}`)
    }
    const diff = changes(before, await snapshot())
    if (Object.keys(diff).length > 0) throw new Error(`a refused request wrote ${JSON.stringify(diff)}: ${where}`)
  } else if (answer.contentType.startsWith('text/event-stream')) {
    const ends = parseSse(answer.text).events.some(e => e.type === 'done' || e.type === 'error')
    if (!ends) throw new Error(`an event stream without [DONE] or [ERROR]: ${where}`)
  } else if (answer.contentType.startsWith('application/x-ndjson')) {
    // an export (GET /api/conversations/export): one JSON value per line
    for (const line of answer.text.split('\n').filter(Boolean)) JSON.parse(line)
  } else if (answer.disposition?.startsWith('attachment')) {
    // a download: the stored original, as uploaded
  } else if (answer.contentType.startsWith('text/csv')) {
    if (!answer.text.includes(',')) throw new Error(`a CSV without its header: ${where}`)
  } else if (spec.protocol && answer.status === 202 && answer.text === '') {
    // a JSON-RPC notification (a message without an id): acknowledged, nothing to answer
  } else if (answer.json === undefined) {
    throw new Error(`a ${answer.status} that is not JSON: ${where}`)
  }
  return answer
}

/** A request the endpoint accepts: the tenant's own ids, a valid body or form, accepted query parameters. */
export function validProbe(spec: EndpointSpec, w: TenantWorld): Probe {
  const params = Object.fromEntries(Object.keys(spec.params).map(k => [k, { tag: 'own' } as const]))
  const search = spec.query ?? {}
  if (spec.method !== 'GET' && spec.valid && spec.body !== 'multipart') {
    return { label: 'valid body', params, search, headers: { 'content-type': 'application/json' }, body: renderJson(spec.valid(w)) }
  }
  if (spec.method !== 'GET' && spec.validForm) return { label: 'valid form', params, search, headers: {}, body: { form: spec.validForm(w) } }
  return { label: 'no body', params, search, headers: {} }
}

export type { Method }
