import { getDatabase } from '@/lib/db/client'
import { routes } from '@/lib/http/route'
import pkg from '@/package.json'

export const { GET, POST, PUT, PATCH, DELETE } = routes({
  GET: async () => {
    const db = await getDatabase()
    await db.sql.query('SELECT 1')
    return Response.json({ status: 'ok', database: db.kind, version: pkg.version })
  },
})
