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
