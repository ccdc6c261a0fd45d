/**
 * A reason a datasource could not be synchronised, in words a user can act on (it becomes the datasource's
 * errorMessage). `permanent` failures (a corrupt file, a refused address, a 404 page) end in `error` at once;
 * the others (a timeout, an embeddings outage) are retried with backoff.
 */
export class IngestError extends Error {
  readonly permanent: boolean
  constructor(message: string, options: { permanent: boolean; cause?: unknown }) {
    super(message, { cause: options.cause })
    this.name = 'IngestError'
    this.permanent = options.permanent
  }
}

/** A failure retrying cannot fix: the datasource ends in `error` with this message. */
export function permanentError(message: string, cause?: unknown): IngestError {
  return new IngestError(message, { permanent: true, cause })
}

/** A failure that may pass: the job is retried with backoff, up to WORKER_MAX_ATTEMPTS. */
export function transientError(message: string, cause?: unknown): IngestError {
  return new IngestError(message, { permanent: false, cause })
}

/** This worker's lease on the job was taken over (it expired, or the datasource was re-queued or deleted). */
export class LeaseLost extends Error {
  constructor(datasourceId: string) {
    super(`The lease on datasource ${datasourceId} is no longer held by this worker`)
    this.name = 'LeaseLost'
  }
}

export function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error)
}
