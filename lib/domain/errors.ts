// The ways a model call fails, as the domain knows them. lib/http/route.ts maps them to HTTP in one place: not
// configured 503, failed 502, timed out 504, all with the code `upstream_unavailable`. The message is the caller's
// to read: it never holds a secret.

export type ModelErrorKind = 'not_configured' | 'failed' | 'timeout'

/**
 * Why a model call failed, typed (issue 22), for the log and for operators: no answer in time, the server could not
 * be reached, it answered an HTTP error status, the stream it had started broke off, or what it sent was not a chat
 * completion. `stopped`: the caller went away; `other`: none of these.
 */
export type ModelFailureCause =
  | { type: 'timeout' }
  | { type: 'refused' }
  | { type: 'http_status'; status: number }
  | { type: 'dropped_stream' }
  | { type: 'unparsable' }
  | { type: 'stopped' }
  | { type: 'not_configured' }
  | { type: 'other' }

export abstract class ModelError extends Error {
  abstract readonly kind: ModelErrorKind
  readonly failure: ModelFailureCause
  constructor(message: string, failure?: ModelFailureCause) {
    super(message)
    this.name = new.target.name
    this.failure = failure ?? { type: 'other' }
  }
}

/** No model provider is configured, or its configuration (MODEL_MAP) is invalid. */
export class ModelNotConfigured extends ModelError {
  readonly kind = 'not_configured'
}

/** The model answered with an error, or the connection to it failed (also: the client went away mid-answer). */
export class ModelFailed extends ModelError {
  readonly kind = 'failed'
}

/** The model stayed silent for longer than AGENT_MODEL_TIMEOUT_SECONDS. */
export class ModelTimeout extends ModelError {
  readonly kind = 'timeout'
}
