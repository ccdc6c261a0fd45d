// A child process for the kill -9 fault test (tests/hardening-faults.test.ts, scripts/reliability/kill9.mjs):
// opens the embedded database in DATA_DIR (on disk) and does one thing, printing one JSON line per event.
//   seed  CHUNKS   create an organization, a datastore and one text datasource of about CHUNKS chunks (queued)
//   requeue ID N   replace the text of datasource ID with a variant of about N chunks (queued for a re-sync)
//   work  ID       run the sync worker until datasource ID is settled (synched, error or usage_limit_reached)
//   inspect ID     print the datasource's status and its chunks: count, distinct positions, duplicates
// Run with: node --conditions=react-server --import tsx scripts/reliability/worker-child.ts <mode> <arg>
import { getDatabase } from '@/lib/db/client'
import { createApiKey } from '@/lib/auth/api-keys'
import { upsertDocuments } from '@/lib/datastores/upsert'
import { createDatastore } from '@/lib/datastores/datastores'
import { drainQueue } from '@/lib/ingest/worker'
import { contentHidden } from '@/lib/search/scope'

const say = (event: string, fields: Record<string, unknown> = {}) => console.log(JSON.stringify({ event, at: Date.now(), ...fields }))

/** A document of about `chunks` chunks of 64 tokens: numbered paragraphs of distinct sentences. */
function documentText(chunks: number, variant = 0): string {
  return Array.from({ length: chunks }, (_, i) =>
    `Paragraph ${i} (edition ${variant}): the kettle model K${i} heats ${i % 7} litres; its warranty covers part ${i * 13} for ${i % 5} years. Descale unit ${i} monthly with citric acid ${i}.`,
  ).join('\n\n')
}

async function inspect(id: string) {
  const { sql } = await getDatabase()
  const [ds] = await sql.query<{ status: string; nbChunks: number; attempts: number; errorMessage: string | null; leaseOwner: string | null; searched: boolean }>(
    // searched: whether searches see its chunks (lib/search/scope.ts: not those of a first synchronisation until it ends)
    `SELECT status, "nbChunks", attempts, "errorMessage", "leaseOwner", NOT ${contentHidden('d')} AS searched
       FROM "Datasource" d WHERE id = $1`,
    [id],
  )
  // the generation searches see (a re-synchronisation in steps writes the next one hidden, then deletes the old one);
  // hidden: the other generation's chunks, stray: any of neither (never expected)
  const [chunks] = await sql.query<{ count: number; positions: number; minPos: number | null; maxPos: number | null; embedded: number; hidden: number; stray: number }>(
    `SELECT count(c.id)::int AS count, count(DISTINCT c.position)::int AS positions, min(c.position) AS "minPos", max(c.position) AS "maxPos",
            count(c.embedding)::int AS embedded,
            (SELECT count(*)::int FROM "Chunk" c WHERE c."datasourceId" = $1 AND c.generation <> d."contentGeneration") AS hidden,
            (SELECT count(*)::int FROM "Chunk" c WHERE c."datasourceId" = $1 AND c.generation <> d."contentGeneration"
               AND c.generation IS DISTINCT FROM d."hiddenGeneration") AS stray
       FROM "Datasource" d LEFT JOIN "Chunk" c ON c."datasourceId" = d.id AND c.generation = d."contentGeneration"
      WHERE d.id = $1 GROUP BY d."contentGeneration", d."hiddenGeneration"`,
    [id],
  )
  const [check] = await sql.query<{ ok: boolean }>(`SELECT count(*) >= 0 AS ok FROM "Chunk"`)
  return { ...ds, ...chunks, visible: ds.searched ? chunks.count : 0, duplicates: chunks.count - chunks.positions, readable: check.ok }
}

async function main() {
  const [mode, arg] = process.argv.slice(2)
  const opened = Date.now()
  const db = await getDatabase()
  say('opened', { ms: Date.now() - opened })
  if (mode === 'seed') {
    const org = await db.prisma.organization.create({ data: { name: 'kill -9' } })
    const ctx = { organizationId: org.id, actor: { type: 'api_key' as const, apiKeyId: '' } }
    await createApiKey(ctx, 'kill -9')
    const store = await createDatastore(ctx, { name: 'kill -9', chunkSize: 64, chunkOverlap: 0 })
    const { ids } = await upsertDocuments(ctx, store.id, [{ text: documentText(Number(arg ?? 300)), name: 'big document' }])
    say('seeded', { datasourceId: ids[0], datastoreId: store.id })
  } else if (mode === 'requeue') {
    const ds = await db.prisma.datasource.findUniqueOrThrow({ where: { id: arg } })
    const ctx = { organizationId: ds.organizationId, actor: { type: 'api_key' as const, apiKeyId: '' } }
    const chunks = Number(process.argv[4] ?? 300)
    await upsertDocuments(ctx, ds.datastoreId, [{ id: arg, text: documentText(chunks, Date.now()), name: 'big document' }])
    say('requeued', { chunks })
  } else if (mode === 'work') {
    const deadline = Date.now() + Number(process.env.CHILD_WORK_TIMEOUT_MS ?? 60_000)
    for (;;) {
      const ran = await drainQueue({ concurrency: 1 })
      const state = await inspect(arg)
      if (ran > 0) say('drained', { ran, status: state.status })
      if (['synched', 'error', 'usage_limit_reached'].includes(state.status)) {
        say('settled', state)
        break
      }
      if (Date.now() > deadline) {
        say('timeout', state)
        break
      }
      await new Promise(r => setTimeout(r, 200))
    }
  } else if (mode === 'inspect') {
    say('inspected', await inspect(arg))
  } else {
    throw new Error(`unknown mode ${mode}`)
  }
  await db.close()
  process.exit(0)
}

main().catch(error => {
  say('failed', { message: error instanceof Error ? error.message : String(error), stack: error instanceof Error ? error.stack : undefined })
  process.exit(1)
})
