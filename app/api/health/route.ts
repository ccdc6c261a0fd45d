import { modelsInForce } from '@/lib/agents/model-catalogue'
import { databaseCapacity } from '@/lib/db/capacity'
import { getDatabase } from '@/lib/db/client'
import { HealthReport } from '@/lib/domain/service'
import { embeddingsProvider } from '@/lib/embeddings/provider'
import { endpoint, endpoints } from '@/lib/api/endpoint'
import pkg from '@/package.json'

export const { GET, POST, PUT, PATCH, DELETE } = endpoints('/api/health', {
  GET: endpoint({
    summary: 'Liveness and database check',
    access: 'public',
    response: HealthReport,
    handler: async () => {
      const db = await getDatabase()
      await db.sql.query('SELECT 1')
      // the models named (endpoints and ids, never keys): what the dashboard shows is what the server calls
      // capacity: chunks held, and on the embedded database how close they are to its measured ceiling (lib/db/capacity.ts)
      const capacity = await databaseCapacity(db, embeddingsProvider() !== null)
      return { status: 'ok' as const, database: db.kind, version: pkg.version, models: modelsInForce(), capacity }
    },
  }),
})
