import type { NotionCall } from './api'
import { NotionRefused } from './api'
import { blockChildren, databasePages, getPage } from './read'
import { bareId, pageTitle, pageUrl, type NotionBlock, type NotionPage } from './objects'

/** A page under a notion datasource's root, as its discovery found it. */
export interface FoundPage {
  id: string
  title: string
  /** Its last_edited_time, which plays a sitemap's lastmod; null when not read this time. */
  lastEdited: string | null
  /** The page it was found under (null: the root itself, or a row of the root database). */
  parentId: string | null
  /** The database it is a row of. */
  databaseId: string | null
}

/** What discovery knows of the pages stored last time, by page id. */
export interface KnownPage {
  parentId: string | null
  databaseId: string | null
  /** The last_edited_time of the content it holds, when synched. */
  heldEdit: string | null
}

export interface NotionRoot {
  rootId: string
  rootType: 'page' | 'database'
}

// blocks that hold other blocks (where a child page may sit) without being pages themselves
const CONTAINERS = ['column_list', 'column', 'toggle', 'synced_block']
const MAX_DEPTH = 10

const fromPage = (page: NotionPage, parentId: string | null, databaseId: string | null = null): FoundPage => ({
  id: bareId(page.id),
  title: pageTitle(page),
  lastEdited: page.last_edited_time,
  parentId,
  databaseId,
})

/**
 * The pages under a root: a database's rows (its query, paged); a page, its child pages and databases' rows, walking
 * child blocks. A known page not edited since it was synched is not walked again: the pages found under it last time
 * are read one by one (a page request each, no block requests) and its databases queried, so an unchanged tree costs
 * little. A child database's rows are pages of it; a database's own sub-pages are not followed.
 */
export async function discoverNotionPages(call: NotionCall, root: NotionRoot, known: Map<string, KnownPage>, limit: number): Promise<FoundPage[]> {
  if (root.rootType === 'database') return (await databasePages(call, root.rootId)).slice(0, limit).map(p => fromPage(p, null, bareId(root.rootId)))
  const found = new Map<string, FoundPage>()
  const add = (page: FoundPage) => found.size < limit && !found.has(page.id) && found.set(page.id, page)
  const unchanged = (page: FoundPage) => page.lastEdited !== null && known.get(page.id)?.heldEdit === page.lastEdited

  const visit = async (page: FoundPage, depth: number): Promise<void> => {
    if (!add(page) || depth >= MAX_DEPTH) return
    if (unchanged(page)) return carryOver(page.id, depth)
    for (const block of await childEntries(call, page.id)) {
      if (block.type === 'child_page') {
        const title = String((block.child_page as { title?: string })?.title ?? '')
        await visit({ id: bareId(block.id), title, lastEdited: block.last_edited_time ?? null, parentId: page.id, databaseId: null }, depth + 1)
      } else if (block.type === 'child_database') {
        await rowsOf(bareId(block.id), page.id)
      }
    }
  }
  const rowsOf = async (databaseId: string, parentId: string) => {
    for (const row of (await unlessGone(databasePages(call, databaseId))) ?? []) add(fromPage(row, parentId, databaseId))
  }
  // what was found under an unchanged page last time: its databases queried again (rows come and go without editing
  // the page), its child pages read again one by one (each may have been edited or removed itself)
  const carryOver = async (parentId: string, depth: number): Promise<void> => {
    const under = [...known].filter(([, page]) => page.parentId === parentId)
    for (const databaseId of new Set(under.flatMap(([, page]) => page.databaseId ?? []))) await rowsOf(databaseId, parentId)
    for (const [id, page] of under) {
      if (page.databaseId || found.has(id)) continue
      const current = await unlessGone(getPage(call, id))
      if (current && !current.archived && !current.in_trash) await visit(fromPage(current, parentId), depth + 1)
    }
  }
  await visit(fromPage(await getPage(call, root.rootId), null), 0)
  return [...found.values()]
}

/** What a call answers, or null when what it asks for is not there (any more): deleted, or no longer shared. */
function unlessGone<T>(answer: Promise<T>): Promise<T | null> {
  return answer.catch(error => (error instanceof NotionRefused && error.status === 404 ? null : Promise.reject(error)))
}

/** A page's child pages and databases, looked for inside columns, toggles and synced blocks too. */
async function childEntries(call: NotionCall, id: string, depth = 0): Promise<NotionBlock[]> {
  const entries: NotionBlock[] = []
  for (const block of await blockChildren(call, id)) {
    if (block.type === 'child_page' || block.type === 'child_database') entries.push(block)
    else if (CONTAINERS.includes(block.type) && block.has_children && depth < 3) entries.push(...(await childEntries(call, block.id, depth + 1)))
  }
  return entries
}

/** The stored config of a page a notion datasource found. */
export function notionPageConfig(connectionId: string, page: FoundPage) {
  return { connectionId, pageId: page.id, parentId: page.parentId, ...(page.databaseId ? { databaseId: page.databaseId } : {}), url: pageUrl(page.id) }
}

/** The name of a notion datasource created without one, until its root page's title is known. */
export function notionDefaultName(root: { rootType: string; rootId: string }): string {
  return `Notion ${root.rootType} ${root.rootId}`
}
