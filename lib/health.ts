import { modelHealth } from '@/lib/agents/model-health'
import { modelsInForce } from '@/lib/agents/model-catalogue'
import { databaseCapacity } from '@/lib/db/capacity'
import { getDatabase } from '@/lib/db/client'
import type { HealthReport } from '@/lib/domain/service'
import { embeddingsProvider } from '@/lib/embeddings/provider'
import pkg from '@/package.json'

// GET /api/health (issue 22): anyone may ask whether the service is up and on which kind of database (what a load
// balancer needs); the details — version, the model endpoints, the last model failure, the chunks held — are for the
// organization (an API key, a dashboard session) or a monitor holding METRICS_TOKEN, as they map the internals.


export async function serviceHealth({ detailed }: { detailed: boolean }): Promise<HealthReport> {
  const db = await getDatabase()
  await db.sql.query('SELECT 1')
  if (!detailed) return { status: 'ok', database: db.kind }
  // the models named (endpoints and ids, never keys): what the dashboard shows is what the server calls
  // capacity: chunks held, and on the embedded database how close they are to its measured ceiling (lib/db/capacity.ts)
  const capacity = await databaseCapacity(db, embeddingsProvider() !== null)
  return { status: 'ok', database: db.kind, version: pkg.version, models: { ...modelsInForce(), lastFailure: modelHealth().lastFailure }, capacity }
}
