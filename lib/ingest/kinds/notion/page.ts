import type { Datasource } from '@/lib/generated/prisma/client'
import { permanentError } from '../../errors'
import { asObject, configText, type Extracted } from '../kind'
import { goneOr, notionGone } from './api'
import { pageSections } from './blocks'
import { notionCallFor } from './connection'
import { pageTitle } from './objects'
import { blockTree, getPage } from './read'

/**
 * A Notion page's text: the page is read first, and when its last_edited_time is the one of the content held
 * (the validator kept at its last sync) nothing else is read; else its block tree, as sections. A page that no
 * longer exists (or is no longer shared) is gone: pruned the second time, as a site's missing page.
 */
export async function extractNotionPage(job: Datasource, signal: AbortSignal): Promise<Extracted> {
  const config = asObject(job.config)
  const pageId = configText(config, 'pageId')
  const connectionId = configText(config, 'connectionId')
  if (!pageId || !connectionId) throw permanentError('This Notion page has no pageId or connectionId in its config')
  const call = await notionCallFor(job.organizationId, connectionId, signal)
  const what = `The Notion page ${pageId}`
  const page = await getPage(call, pageId).catch(error => Promise.reject(goneOr(error, what)))
  if (page.archived || page.in_trash) throw notionGone(what)
  const validators = { etag: page.last_edited_time, lastModified: null }
  // conditional only when the content that validator describes is the one held (prepare.ts clears it otherwise)
  if (job.lastSynch && job.contentHash && job.httpEtag === page.last_edited_time) return { notModified: true, validators }
  const blocks = await blockTree(call, pageId).catch(error => Promise.reject(goneOr(error, what)))
  const title = pageTitle(page) || undefined
  return { sections: pageSections(page, blocks), title, validators }
}
