// Fixed limits of the API that clients show or check before sending (the configurable ones, such as
// LIMIT_FILE_SIZE_MB, come from the server's settings at run time).

/** Documents in one upsert (a 413 above). */
export const MAX_UPSERT_DOCUMENTS = 1000
/** Characters of a datastore query. */
export const MAX_QUERY_LENGTH = 10_000
/** Fragments one datastore query may ask for. */
export const MAX_TOP_K = 100
/** A datastore's chunking, in tokens. */
export const CHUNK_SIZE_RANGE = { min: 64, max: 4096, default: 512 } as const
export const CHUNK_OVERLAP_RANGE = { min: 0, max: 1024, default: 64 } as const

/**
 * The relevance floor of an agent that sets none (issue 22): fragments scoring below it are not given to the model,
 * and a question with nothing above it gets the "no answer" reply. Calibrated with `npm run bench -- floor` on SciFact
 * (docs/benchmarks.md "Default relevance floor"): the highest floor that drops no judged-relevant fragment from a top
 * 10 (nDCG@10 unchanged, 0.6985) while it turns 77% of off-topic questions into "no fragment". An agent's own
 * `minScore` overrides it; 0 turns the floor off.
 */
export const DEFAULT_MIN_SCORE = 0.15
