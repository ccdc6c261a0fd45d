// The ways a model call fails, as the domain knows them. lib/http/route.ts maps them to HTTP in one place: not
// configured 503, failed 502, timed out 504, all with the code `upstream_unavailable`. The message is the caller's
// to read: it never holds a secret.

export type ModelErrorKind = 'not_configured' | 'failed' | 'timeout'

export abstract class ModelError extends Error {
  abstract readonly kind: ModelErrorKind
  constructor(message: string) {
    super(message)
    this.name = new.target.name
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
