// The parts of Notion's objects (API version 2022-06-28) the notion kinds read: pages, blocks, lists, rich text.

export interface RichText {
  plain_text?: string
}

export interface NotionPage {
  object: 'page'
  id: string
  url?: string
  last_edited_time: string
  archived?: boolean
  in_trash?: boolean
  properties?: Record<string, NotionProperty>
}

export interface NotionProperty {
  type: string
  [value: string]: unknown
}

export interface NotionBlock {
  object: 'block'
  id: string
  type: string
  has_children?: boolean
  last_edited_time?: string
  archived?: boolean
  in_trash?: boolean
  [value: string]: unknown
}

/** A page of a paginated list (block children, a database query). */
export interface NotionList<T> {
  object: 'list'
  results: T[]
  has_more: boolean
  next_cursor: string | null
}

/** A Notion id with its dashes removed (ids are given with or without them). */
export const bareId = (id: string) => id.replace(/-/g, '').toLowerCase()

/** The address of a page in Notion's app. */
export const pageUrl = (id: string) => `https://www.notion.so/${bareId(id)}`

export function plainText(rich: unknown): string {
  return Array.isArray(rich) ? rich.map(r => (r as RichText)?.plain_text ?? '').join('') : ''
}

/** A page's title: its property of type title. */
export function pageTitle(page: NotionPage): string {
  const title = Object.values(page.properties ?? {}).find(p => p.type === 'title')
  return title ? plainText(title.title).trim() : ''
}

/** One property of a database row as text ('' when empty or of a kind that holds no text). */
export function propertyText(property: NotionProperty): string {
  const value = property[property.type]
  switch (property.type) {
    case 'rich_text':
    case 'title':
      return plainText(value)
    case 'number':
    case 'url':
    case 'email':
    case 'phone_number':
    case 'checkbox':
      return value === null || value === undefined ? '' : String(value)
    case 'select':
    case 'status':
      return (value as { name?: string } | null)?.name ?? ''
    case 'multi_select':
      return Array.isArray(value) ? value.map(v => (v as { name?: string }).name ?? '').filter(Boolean).join(', ') : ''
    case 'date': {
      const date = value as { start?: string; end?: string | null } | null
      return date?.start ? (date.end ? `${date.start} → ${date.end}` : date.start) : ''
    }
    case 'people':
      return Array.isArray(value) ? value.map(v => (v as { name?: string }).name ?? '').filter(Boolean).join(', ') : ''
    case 'formula': {
      const formula = value as { type?: string; [k: string]: unknown } | null
      return formula?.type ? String(formula[formula.type] ?? '') : ''
    }
    default:
      return ''
  }
}
