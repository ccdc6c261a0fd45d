import { modelsInForce } from '@/lib/agents/model-catalogue'
import { databaseCapacity } from '@/lib/db/capacity'
import { getDatabase } from '@/lib/db/client'
import { embeddingsProvider } from '@/lib/embeddings/provider'
import { routes } from '@/lib/http/route'
import pkg from '@/package.json'

export const { GET, POST, PUT, PATCH, DELETE } = routes({
  GET: async () => {
    const db = await getDatabase()
    await db.sql.query('SELECT 1')
    // the models named (endpoints and ids, never keys): what the dashboard shows is what the server calls
    // capacity: chunks held, and on the embedded database how close they are to its measured ceiling (lib/db/capacity.ts)
    const capacity = await databaseCapacity(db, embeddingsProvider() !== null)
    return Response.json({ status: 'ok', database: db.kind, version: pkg.version, models: modelsInForce(), capacity })
  },
})
