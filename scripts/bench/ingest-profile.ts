// `npm run bench -- ingest-profile [--docs N] [--compare DIR]`: where each chunk's CPU goes on the ingest path, on
// real text (BEIR SciFact abstracts, title + text).
//
// One run, in this process, on a FRESH embedded database (PGlite on disk in a new temporary DATA_DIR, as
// `npm run bench:ingest`), with embeddings of 1536 dimensions from scripts/bench/embeddings-server.ts (its own
// process, loopback): an organization and a datastore are created (createDatastore), the documents are upserted in
// batches as a client's requests would reach the service (JSON.parse of the body, parseUpsertBody, upsertDocuments),
// then the worker's drainQueue() runs until every datasource is synched. Measured:
//
// - wall time, chunks/s, and CPU per chunk of each phase: the process (process.cpuUsage, every thread) and its main
//   thread alone (/proc/self/task/<pid>/schedstat), the rest being V8's GC helpers and compilers and libuv's pool;
// - a sampling CPU profile (node:inspector, 1 ms) of each phase; each sample goes to the category of the deepest
//   frame of its stack that has one (a WebAssembly frame goes to its JavaScript caller's owner: PGlite's is
//   PostgreSQL, Prisma's is its query compiler). Categories: see CATEGORIES;
// - the time inside PostgreSQL's main loop per SQL statement (PGlite's execProtocolRawSync, wrapped and timed);
// - a SQL experiment after the drain, on the same database and the same rows: the run's chunks inserted again, as
//   the worker writes them (multi-row INSERTs of 500 rows, binary vectors, one transaction per statement), into
//   fresh copies of the live "Chunk" table (CREATE TABLE … LIKE "Chunk", the indexes and foreign keys read from the
//   catalog) with one more feature each: bare row → + primary key and b-tree indexes → + the generated tsvector →
//   + its GIN index → + the HNSW index → + the foreign keys (= the real table). The differences in CPU are the
//   cost of each, per chunk. Rounds alternate the variants' order (forward, then backward).
//
// Options: --docs N (1500), --batch N (100 documents per upsert), --concurrency N (WORKER_CONCURRENCY, 2),
// --corpus FILE (../shared/data/scifact-train/corpus.jsonl or BENCH_CORPUS), --interval µs (1000), --sql-rounds N
// (2; 0 skips the experiment), --no-profile (neither the CPU profile nor the per-statement counts: the profiler's own
// cost is the difference), --no-embeddings (full-text mode: no embeddings provider), --json FILE (the result, for ingest-compare.ts), --cpuprofile FILE (the drain's profile,
// for DevTools), --label TEXT, --compare DIR [--rounds N] [--balanced] (see ingest-compare.ts).
//
// The parts live in scripts/bench/ingest-profile/: options, cpu (the CPU measures), categories and profile (the
// sampling profile by category), statements (time inside PGlite per statement), app and corpus (what is ingested,
// through which functions), ingest-run (one run), chunk-table and sql-experiment, result, measures and render-run.
// They use only what the tree before the ingest refactor (cc0654c) also has, so ingest-compare.ts copies this file
// and that folder there; none of them imports ingest-compare.ts.
import fs from 'node:fs'
import path from 'node:path'
import { pathToFileURL } from 'node:url'
import { profileIngest } from './ingest-profile/ingest-run'
import { ROOT, parseArgs } from './ingest-profile/options'
import { renderRun } from './ingest-profile/render-run'

// ---- entry point ----

export async function run(argv: string[] = process.argv.slice(2)): Promise<void> {
  const { options, compare, rounds, balanced, rest } = parseArgs(argv)
  if (compare) {
    const { compareTrees } = await import('./ingest-compare')
    await compareTrees({ before: compare, after: ROOT, rounds, balanced, args: rest })
    return
  }
  const result = await profileIngest(options)
  if (options.json) fs.writeFileSync(options.json, JSON.stringify(result, null, 1))
  console.log(renderRun(result))
}

if (process.argv[1] && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href) {
  run()
    .then(() => process.exit(0))
    .catch(error => {
      console.error(error)
      process.exit(1)
    })
}
