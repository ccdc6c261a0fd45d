import { notionRequest, type NotionCall } from './api'
import type { BlockNode } from './blocks'
import { bareId, type NotionBlock, type NotionList, type NotionPage } from './objects'

/** How much of a page's block tree is read: levels of nesting, blocks in all (a page past them is cut, not refused). */
export const BLOCK_BOUNDS = { depth: 5, blocks: 5000 }
/** Blocks whose children are other pages' content (their own datasources), never read as this page's. */
const OTHER_PAGES = ['child_page', 'child_database']

const visible = (o: { archived?: boolean; in_trash?: boolean }) => !o.archived && !o.in_trash

/** Every item of a paginated list, following next_cursor. */
async function everyItem<T>(fetch: (cursor: string | null) => Promise<NotionList<T>>): Promise<T[]> {
  const items: T[] = []
  let cursor: string | null = null
  do {
    const page: NotionList<T> = await fetch(cursor)
    items.push(...page.results)
    cursor = page.has_more ? page.next_cursor : null
  } while (cursor)
  return items
}

export function getPage(call: NotionCall, id: string): Promise<NotionPage> {
  return notionRequest<NotionPage>(call, 'GET', `/v1/pages/${bareId(id)}`, `the page ${bareId(id)}`)
}

/** A block's (or page's) direct children, every page of them. */
export async function blockChildren(call: NotionCall, id: string): Promise<NotionBlock[]> {
  const path = (cursor: string | null) => `/v1/blocks/${bareId(id)}/children?page_size=100${cursor ? `&start_cursor=${encodeURIComponent(cursor)}` : ''}`
  const blocks = await everyItem(cursor => notionRequest<NotionList<NotionBlock>>(call, 'GET', path(cursor), `the blocks of ${bareId(id)}`))
  return blocks.filter(visible)
}

/** A page's block tree, within BLOCK_BOUNDS; child pages and databases are left as single blocks. */
export async function blockTree(call: NotionCall, pageId: string): Promise<BlockNode[]> {
  let read = 0
  const level = async (id: string, depth: number): Promise<BlockNode[]> => {
    const blocks = (await blockChildren(call, id)).slice(0, Math.max(0, BLOCK_BOUNDS.blocks - read))
    read += blocks.length
    const nodes: BlockNode[] = []
    for (const block of blocks) {
      const deeper = block.has_children && !OTHER_PAGES.includes(block.type) && depth < BLOCK_BOUNDS.depth && read < BLOCK_BOUNDS.blocks
      nodes.push({ block, children: deeper ? await level(block.id, depth + 1) : [] })
    }
    return nodes
  }
  return level(pageId, 1)
}

/** Every row (page) of a database, through its query, paged. */
export async function databasePages(call: NotionCall, id: string): Promise<NotionPage[]> {
  const query = (cursor: string | null) =>
    notionRequest<NotionList<NotionPage>>(call, 'POST', `/v1/databases/${bareId(id)}/query`, `the database ${bareId(id)}`, {
      page_size: 100,
      ...(cursor ? { start_cursor: cursor } : {}),
    })
  return (await everyItem(query)).filter(p => p.object === 'page' && visible(p))
}
