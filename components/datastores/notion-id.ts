// A Notion page's or database's id from what a user pastes: its address (https://www.notion.so/Title-<32 hex>?v=…)
// or the id itself, dashed or not. The query (a database view's ?v=) is not the object's id.

const DASHED = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/gi
const BARE = /[0-9a-f]{32}/gi

export function notionIdOf(input: string): string | null {
  const text = input.trim()
  let where = text
  try {
    where = decodeURIComponent(new URL(text).pathname)
  } catch {
    // not an address: the id itself
  }
  const ids = [...where.replace(DASHED, m => m.replace(/-/g, '')).matchAll(BARE)].map(m => m[0].toLowerCase())
  return ids.at(-1) ?? null
}
