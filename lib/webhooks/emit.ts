import { randomUUID } from 'node:crypto'
import { getDatabase } from '@/lib/db/client'
import type { SqlDriver } from '@/lib/db/sql-driver'
import type { StatementPart } from '@/lib/db/statement-parts'
import type { WebhookEvent, WebhookEventData, WebhookPayload } from '@/lib/domain/webhooks'
import { logger } from '@/lib/logger'

type Executor = Pick<SqlDriver, 'query'>

export interface EventToEmit<E extends WebhookEvent = WebhookEvent> {
  event: E
  data: WebhookEventData[E]
}

/**
 * Queues one delivery of `event` for each enabled endpoint of the organization that subscribed to it (inside the
 * caller's transaction when `executor` is given). The worker's delivery lane sends them. Never throws without an
 * executor: an event that cannot be queued is logged, and what emitted it goes on.
 */
export async function emitEvent<E extends WebhookEvent>(organizationId: string, event: E, data: WebhookEventData[E], executor?: Executor): Promise<number> {
  return emitEvents(organizationId, [{ event, data }], executor)
}

/** emitEvent for several events of one organization, in one statement (no row, and little cost, when nobody listens). */
export async function emitEvents(organizationId: string, events: EventToEmit[], executor?: Executor): Promise<number> {
  if (events.length === 0) return 0
  const queued = queuedDeliveries(organizationId, events)(1)
  try {
    const sql = executor ?? (await getDatabase()).sql
    const rows = await sql.query(`${queued.sql} RETURNING id`, queued.params)
    return rows.length
  } catch (error) {
    if (executor) throw error
    logger.error('webhook events not queued', { organizationId, events: events.map(e => e.event), error })
    return 0
  }
}

/**
 * The INSERT that queues the events' deliveries: a statement of its own, or a part of the statement that stores what
 * the events tell (lib/db/statement-parts.ts), so that the row and its events are stored together, in one exchange.
 * `onlyIf`: an SQL condition the queueing also needs.
 */
export const queuedDeliveries = (organizationId: string, events: EventToEmit[], onlyIf = 'true'): StatementPart => first => {
  const createdAt = new Date().toISOString()
  const payloads = events.map(({ event, data }): WebhookPayload<WebhookEvent> => ({ id: `evt_${randomUUID().replace(/-/g, '')}`, type: event, createdAt, organizationId, data }))
  const [org, types, bodies] = [first, first + 1, first + 2].map(n => `$${n}`)
  return {
    sql: `INSERT INTO "WebhookDelivery" (id, "organizationId", "endpointId", event, body)
       SELECT 'whd_' || replace(gen_random_uuid()::text, '-', ''), e."organizationId", e.id, v.event, v.body
         FROM "WebhookEndpoint" e CROSS JOIN unnest(${types}::text[], ${bodies}::text[]) WITH ORDINALITY AS v(event, body, n)
        WHERE e."organizationId" = ${org} AND e.enabled AND v.event = ANY(e.events) AND ${onlyIf}
        ORDER BY v.n`,
    params: [organizationId, payloads.map(p => p.type), payloads.map(p => JSON.stringify(p))],
  }
}

const DATASOURCE_EVENTS = { synched: 'datasource.synched', error: 'datasource.failed', usage_limit_reached: 'datasource.usage_limit_reached' } as const

/** The event a datasource's ending is told as, or null for a status that is no ending (pending, running…). */
export function datasourceEventOf(status: string): (typeof DATASOURCE_EVENTS)[keyof typeof DATASOURCE_EVENTS] | null {
  return status in DATASOURCE_EVENTS ? DATASOURCE_EVENTS[status as keyof typeof DATASOURCE_EVENTS] : null
}
