import type { TenantContext } from '@/lib/auth/tenant'
import { getPrisma } from '@/lib/db/client'
import { toDatasourceResource, type DatasourceResource } from './datasource-resource'
import { findDatastore } from './datastores'
import type { WebDatasourceBody } from './schemas'

function defaultName(url: string): string {
  const { host, pathname } = new URL(url)
  return (pathname === '/' ? host : host + pathname).slice(0, 200)
}

/** A `web_page` or `web_site` datasource (§4.5 JSON form), queued: the worker fetches or discovers the pages. */
export async function createWebDatasource(ctx: TenantContext, body: WebDatasourceBody): Promise<DatasourceResource> {
  const store = await findDatastore(ctx, body.datastoreId)
  // web_page: {source_url}; web_site: {sitemap} and/or {source_url} (the sitemap is used first)
  const cfg: { sitemap?: string; source_url?: string } =
    body.type === 'web_page'
      ? { source_url: body.config.source_url }
      : {
          ...(body.config.sitemap ? { sitemap: body.config.sitemap } : {}),
          ...(body.config.source_url ? { source_url: body.config.source_url } : {}),
        }
  const prisma = await getPrisma()
  const ds = await prisma.datasource.create({
    data: {
      organizationId: ctx.organizationId,
      datastoreId: store.id,
      type: body.type,
      name: body.name || defaultName(cfg.sitemap ?? cfg.source_url!),
      status: 'pending',
      config: cfg,
      customId: body.custom_id ?? null,
    },
  })
  return toDatasourceResource(ds)
}
