import { z } from 'zod'
import { IdParam } from '@/lib/http/body'
import { configText, documentSource, type DocumentKind, type GroupKind } from '../kind'
import { extractNotionPage } from './page'
import { syncNotion } from './sync'
import { hasNotionConnection } from './connection'
import { notionDefaultName } from './discover'
import { bareId, pageUrl } from './objects'

// Notion (README "Notion"): a `notion` datasource is a page or a database shared with an organization's integration
// (a connection, lib/connections); its pages are synched as `notion_page` children, refreshed on the schedule.

/** A Notion id: 32 hexadecimal digits, dashes allowed (as Notion's API and URLs write them). */
export const NotionId = z
  .string()
  .trim()
  .transform(bareId)
  .refine(id => /^[0-9a-f]{32}$/.test(id), 'must be a Notion id: the 32 hexadecimal digits at the end of the page’s or database’s address')

const NotionConfig = z.object({ connectionId: IdParam, rootId: NotionId, rootType: z.enum(['page', 'database']) })
type NotionConfig = z.infer<typeof NotionConfig>

export const notionKind: GroupKind<'notion'> = {
  type: 'notion',
  sync: 'group',
  refreshable: true,
  creation: {
    via: 'json',
    json: {
      configSchema: NotionConfig,
      storedConfig: (config: NotionConfig) => ({ connectionId: config.connectionId, rootId: config.rootId, rootType: config.rootType }),
      defaultName: notionDefaultName,
      missing: async (organizationId, config: NotionConfig) => ((await hasNotionConnection(organizationId, config.connectionId)) ? null : 'Notion connection'),
    },
  },
  publicFields: ['connectionId', 'rootId', 'rootType'],
  sourceOf: ds => (configText(ds.config, 'rootId') ? pageUrl(configText(ds.config, 'rootId')!) : documentSource(ds)),
  syncGroup: syncNotion,
}

/** One page of a notion datasource (created by it, never alone). */
export const notionPageKind: DocumentKind<'notion_page'> = {
  type: 'notion_page',
  sync: 'document',
  readsStoredOriginal: false,
  creation: { via: 'group' },
  // each job waits on Notion's API: run alone, with other lanes busy meanwhile
  batched: false,
  publicFields: ['connectionId', 'pageId', 'url'],
  sourceOf: ds => configText(ds.config, 'url') ?? documentSource(ds),
  extract: extractNotionPage,
  noTextMessage: 'The Notion page has no text',
}
