// The app's code, as either tree has it: the service functions a request and the worker reach, looked up by name.
export type Sql = {
  exec(sql: string): Promise<void>
  query<T = Record<string, unknown>>(sql: string, params?: unknown[]): Promise<T[]>
  transaction<T>(fn: (tx: { query<R = Record<string, unknown>>(sql: string, params?: unknown[]): Promise<R[]> }) => Promise<T>): Promise<T>
}
export type Ctx = { organizationId: string; actor: { type: 'user'; userId: string } }

export interface App {
  createDatastore(ctx: Ctx, name: string): Promise<string>
  upsert(ctx: Ctx, datastoreId: string, body: string): Promise<number>
  drain(concurrency: number): Promise<number>
  workerConcurrency(): number
}

function pick<T>(module: Record<string, unknown>, names: string[], what: string): T {
  for (const name of names) if (typeof module[name] === 'function') return module[name] as T
  throw new Error(`${what}: none of ${names.join(', ')} is exported here; adapt scripts/bench/ingest-profile/app.ts to this tree`)
}

/** The service functions a user's requests and the worker reach, looked up by name (the ingest code is being refactored). */
export async function loadApp(): Promise<App> {
  const datastores = (await import('@/lib/datastores/datastores')) as Record<string, unknown>
  const upsert = (await import('@/lib/datastores/upsert')) as Record<string, unknown>
  const worker = (await import('@/lib/ingest/worker')) as Record<string, unknown>
  const config = (await import('@/lib/config')) as { config: () => { WORKER_CONCURRENCY: number } }
  const createDatastore = pick<(ctx: Ctx, input: { name: string }) => Promise<{ id: string }>>(datastores, ['createDatastore'], 'lib/datastores/datastores')
  const parseUpsertBody = pick<(body: unknown) => unknown[]>(upsert, ['parseUpsertBody'], 'lib/datastores/upsert')
  const upsertDocuments = pick<(ctx: Ctx, id: string, docs: unknown[]) => Promise<{ ids: string[] }>>(upsert, ['upsertDocuments'], 'lib/datastores/upsert')
  const drainQueue = pick<(o: { concurrency?: number }) => Promise<number>>(worker, ['drainQueue'], 'lib/ingest/worker')
  // what the server's start does in a tree that has it (lib/bootstrap.ts): the token counter's table built before
  // any document comes
  const tokenizer = (await import('@/lib/ingest/tokenizer')) as { prepareTokenCounter?: () => void }
  tokenizer.prepareTokenCounter?.()
  return {
    createDatastore: async (ctx, name) => (await createDatastore(ctx, { name })).id,
    // what the upsert route does with a request's body, after authentication
    upsert: async function upsertRequest(ctx, id, body) {
      return (await upsertDocuments(ctx, id, parseUpsertBody(JSON.parse(body)))).ids.length
    },
    drain: concurrency => drainQueue({ concurrency }),
    workerConcurrency: () => config.config().WORKER_CONCURRENCY,
  }
}
