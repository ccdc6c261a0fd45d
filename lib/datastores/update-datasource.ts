import { z } from 'zod'
import { refreshHours } from '@/lib/domain/refresh'
import type { TenantContext } from '@/lib/domain/tenant'
import { getPrisma } from '@/lib/db/client'
import { validate } from '@/lib/http/body'
import { InvalidRequest } from '@/lib/http/errors'
import { asObject, kindOf } from '@/lib/ingest/kinds'
import { rescheduleRefreshes } from '@/lib/ingest/lifecycle'
import { toDatasourceResource, type DatasourceResource } from './datasource-resource'
import { findDatasource } from './datasources'
import type { DatasourcePatchBody } from './schemas'

/**
 * Changes a datasource's name, its refresh interval (web sources; null follows its datastore's; the next refresh
 * counts from now) or the editable part of its config (a web site's crawl rules, used from its next synchronisation).
 */
export async function updateDatasource(ctx: TenantContext, id: string, patch: DatasourcePatchBody): Promise<DatasourceResource> {
  const ds = await findDatasource(ctx, id)
  const kind = kindOf(ds.type)
  if (patch.refreshInterval !== undefined && (!kind.refreshable || ds.groupId)) {
    const why = ds.groupId ? 'a page of a web site is refreshed with its site' : `a ${ds.type} datasource is not fetched from anywhere`
    throw new InvalidRequest(`refreshInterval cannot be set here: ${why}`, [{ path: 'refreshInterval', message: why, code: 'custom' }])
  }
  let config: object | undefined
  if (patch.config !== undefined) {
    if (!kind.editableConfig) {
      throw new InvalidRequest(`The config of a ${ds.type} datasource cannot be changed`, [{ path: 'config', message: 'not editable', code: 'custom' }])
    }
    const { config: valid } = validate(z.object({ config: kind.editableConfig.schema }), { config: patch.config }, 'config')
    config = kind.editableConfig.apply(asObject(ds.config), valid)
  }
  const prisma = await getPrisma()
  await prisma.datasource.update({
    where: { id: ds.id, organizationId: ctx.organizationId },
    data: {
      name: patch.name,
      config,
      refreshHours: patch.refreshInterval === undefined ? undefined : patch.refreshInterval === null ? null : refreshHours(patch.refreshInterval),
    },
  })
  if (patch.refreshInterval !== undefined) await rescheduleRefreshes({ ids: [ds.id] }, [ds.type])
  return toDatasourceResource(await findDatasource(ctx, ds.id))
}
