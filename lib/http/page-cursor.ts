import { InvalidRequest } from './errors'

// The opaque cursor of a newest-first list (createdAt, then id, descending): what `nextCursor` carries and `cursor`
// gives back. A forged one is a 400, never a database query.

export function encodePageCursor(row: { createdAt: Date; id: string }): string {
  return Buffer.from(JSON.stringify([row.createdAt.toISOString(), row.id])).toString('base64url')
}

export function decodePageCursor(cursor: string): { createdAt: Date; id: string } {
  try {
    const [at, id] = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as [unknown, unknown]
    const createdAt = new Date(String(at))
    const year = createdAt.getUTCFullYear()
    if (typeof id !== 'string' || !/^[\x21-\x7e]{1,128}$/.test(id)) throw new Error('bad cursor')
    if (Number.isNaN(createdAt.getTime()) || year < 1970 || year > 9999) throw new Error('bad cursor')
    return { createdAt, id }
  } catch {
    throw new InvalidRequest('Invalid cursor: pass the nextCursor of a previous page', [
      { path: 'cursor', message: 'not a cursor of this list', code: 'custom' },
    ])
  }
}

/** The rows after the cursor, in a Prisma `where`: older, or as old with a smaller id. */
export function afterCursor(cursor: { createdAt: Date; id: string }) {
  return { OR: [{ createdAt: { lt: cursor.createdAt } }, { createdAt: cursor.createdAt, id: { lt: cursor.id } }] }
}
