import { config as settings } from '@/lib/config'
import { getPrisma } from '@/lib/db/client'
import type { DatasourceStatus } from '@/lib/domain/datasources'
import type { Datasource } from '@/lib/generated/prisma/client'
import { permanentError } from '../../errors'
import { knownChildren, matchChildren, pageLimitOf, type KnownChild } from '../group-children'
import { asObject, configText, type JobContext } from '../kind'
import { notionCallFor } from './connection'
import { discoverNotionPages, notionDefaultName, notionPageConfig, type KnownPage, type NotionRoot } from './discover'

const heldEdit = (c: KnownChild) => (c.status === 'synched' ? c.httpEtag : null)

function knownPage(c: KnownChild): KnownPage {
  const config = asObject(c.config)
  return { parentId: configText(config, 'parentId') ?? null, databaseId: configText(config, 'databaseId') ?? null, heldEdit: heldEdit(c) }
}

/** A group still named by default ("Notion page <id>") takes its root page's title, as a site's page takes its own. */
async function nameAfterRoot(group: Datasource, title: string): Promise<void> {
  const config = asObject(group.config)
  if (!title || group.name !== notionDefaultName({ rootType: configText(config, 'rootType') ?? '', rootId: configText(config, 'rootId') ?? '' })) return
  const prisma = await getPrisma()
  await prisma.datasource.update({ where: { id: group.id }, data: { name: title.slice(0, 200) } })
}

/**
 * Finds the pages under the root (discover.ts) and makes the `notion_page` children match them, as a web site does
 * its pages: a page whose last_edited_time is the one of the content it holds is left alone (no request at all);
 * others are queued; pages no longer found are removed with their chunks.
 */
export async function syncNotion(group: Datasource, ctx: JobContext): Promise<DatasourceStatus | null> {
  const config = asObject(group.config)
  const connectionId = configText(config, 'connectionId')
  const root = { rootId: configText(config, 'rootId'), rootType: configText(config, 'rootType') }
  if (!connectionId || !root.rootId || (root.rootType !== 'page' && root.rootType !== 'database')) {
    throw permanentError('This Notion datasource has no connectionId, rootId or rootType in its config')
  }
  const call = await notionCallFor(group.organizationId, connectionId, ctx.signal)
  const children = await knownChildren(group.id)
  const known = new Map<string, KnownPage>(children.map(c => [configText(asObject(c.config), 'pageId') ?? '', knownPage(c)]))
  const limit = await pageLimitOf(group.organizationId, settings().LIMIT_WEBSITE_PAGES)
  // a refused root (not shared, a revoked token) is a permanent error saying what to do (api.ts)
  const pages = await discoverNotionPages(call, root as NotionRoot, known, limit)
  if (pages.length === 0) throw permanentError(`The Notion ${root.rootType} has no pages shared with the integration`)
  await nameAfterRoot(group, pages[0].parentId === null ? pages[0].title : '')
  const found = pages.map(page => ({
    key: page.id,
    name: page.title || 'Untitled',
    config: notionPageConfig(connectionId, page),
    current: (c: KnownChild) => page.lastEdited !== null && heldEdit(c) === page.lastEdited,
  }))
  return matchChildren(group, ctx, { type: 'notion_page', keyOf: c => configText(c, 'pageId') ?? '' }, found)
}
