import type { TenantContext } from '@/lib/domain/tenant'
import type { DatasourceResource } from '@/lib/domain/datastores'
import { refreshHours } from '@/lib/domain/refresh'
import { InvalidRequest, NotFound } from '@/lib/http/errors'
import { kindOf } from '@/lib/ingest/kinds'
import { createQueuedDatasource } from '@/lib/ingest/lifecycle'
import { toDatasourceResource } from './datasource-resource'
import { findDatastore } from './datastores'
import type { JsonDatasourceBody } from './schemas'

/** A datasource of a kind created with JSON (§4.5: a web page or site), queued: the worker fetches or discovers its content. */
export async function createJsonDatasource(ctx: TenantContext, body: JsonDatasourceBody): Promise<DatasourceResource> {
  const store = await findDatastore(ctx, body.datastoreId)
  const kind = kindOf(body.type)
  // the body schema has only JSON-created kinds: another one here is a bug in the caller
  if (kind.creation.via !== 'json') throw new InvalidRequest(`Datasources of type ${body.type} are not created with a JSON body`)
  const { json } = kind.creation
  const missing = await json.missing?.(ctx.organizationId, body.config)
  if (missing) throw new NotFound(missing)
  const ds = await createQueuedDatasource({
    organizationId: ctx.organizationId,
    datastoreId: store.id,
    type: kind.type,
    name: body.name || json.defaultName(body.config),
    config: json.storedConfig(body.config) as object,
    customId: body.custom_id ?? null,
    refreshHours: body.refreshInterval == null ? null : refreshHours(body.refreshInterval),
  })
  return toDatasourceResource(ds)
}
