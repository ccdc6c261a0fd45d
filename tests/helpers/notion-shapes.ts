// Notion's objects as its API (version 2022-06-28) answers them, for the fake Notion of the tests: the shapes of
// recorded responses of https://developers.notion.com/reference (page, block, list, error, bot user), fields and all.
import { randomUUID } from 'node:crypto'

const USER = { object: 'user', id: 'a2f44c7e-52f1-4bd5-9a4c-3a0b4a3d1b22' }

export const dashed = (id: string) => id.replace(/-/g, '').replace(/^(.{8})(.{4})(.{4})(.{4})(.{12})$/, '$1-$2-$3-$4-$5')
export const newId = () => randomUUID()

export function richText(content: string) {
  return [
    {
      type: 'text',
      text: { content, link: null },
      annotations: { bold: false, italic: false, strikethrough: false, underline: false, code: false, color: 'default' },
      plain_text: content,
      href: null,
    },
  ]
}

/** A block as GET /v1/blocks/{id}/children lists it; `body` is its type's object. */
export function blockObject(id: string, parentId: string, type: string, body: Record<string, unknown>, hasChildren: boolean, lastEdited: string) {
  return {
    object: 'block',
    id: dashed(id),
    parent: { type: 'page_id', page_id: dashed(parentId) },
    created_time: '2026-01-05T09:12:00.000Z',
    last_edited_time: lastEdited,
    created_by: USER,
    last_edited_by: USER,
    has_children: hasChildren,
    archived: false,
    in_trash: false,
    type,
    [type]: body,
  }
}

/** A page as GET /v1/pages/{id} and a database query answer it. */
export function pageObject(page: { id: string; title: string; lastEdited: string; parent: { page?: string; database?: string }; properties?: Record<string, unknown> }) {
  const parent = page.parent.database
    ? { type: 'database_id', database_id: dashed(page.parent.database) }
    : page.parent.page
      ? { type: 'page_id', page_id: dashed(page.parent.page) }
      : { type: 'workspace', workspace: true }
  const titleName = page.parent.database ? 'Name' : 'title'
  return {
    object: 'page',
    id: dashed(page.id),
    created_time: '2026-01-05T09:12:00.000Z',
    last_edited_time: page.lastEdited,
    created_by: USER,
    last_edited_by: USER,
    cover: null,
    icon: null,
    parent,
    archived: false,
    in_trash: false,
    properties: { ...page.properties, [titleName]: { id: 'title', type: 'title', title: richText(page.title) } },
    url: `https://www.notion.so/${page.title.replace(/\W+/g, '-')}-${page.id.replace(/-/g, '')}`,
    public_url: null,
  }
}

export function listObject(results: unknown[], nextCursor: string | null, type: 'block' | 'page_or_database') {
  return { object: 'list', results, next_cursor: nextCursor, has_more: nextCursor !== null, type, [type]: {}, request_id: randomUUID() }
}

export function errorObject(status: number, code: string, message: string) {
  return { object: 'error', status, code, message, request_id: randomUUID() }
}

export function botUser(name: string) {
  return {
    object: 'user',
    id: '9a3b6a51-7c37-4cbb-8a5e-0f6d2c9d1e11',
    name,
    avatar_url: null,
    type: 'bot',
    bot: { owner: { type: 'workspace', workspace: true }, workspace_name: 'Acme support' },
    request_id: randomUUID(),
  }
}

/** Property values of a database row, as Notion writes them. */
export const property = {
  select: (name: string) => ({ id: 'sel', type: 'select', select: { id: 'opt', name, color: 'blue' } }),
  richText: (content: string) => ({ id: 'txt', type: 'rich_text', rich_text: richText(content) }),
  number: (value: number) => ({ id: 'num', type: 'number', number: value }),
}
