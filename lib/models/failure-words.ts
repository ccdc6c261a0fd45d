import { APIConnectionTimeoutError, APIError } from 'openai'

// What went wrong with a call to the model server, in an operator's words (issue 27): "could not reach
// http://…: connection refused" rather than "Connection error.", "the server refused the API key" rather than "401".

const NETWORK_CODES: Record<string, string> = {
  ECONNREFUSED: 'connection refused',
  ECONNRESET: 'the connection was reset',
  ENOTFOUND: 'no such host',
  EAI_AGAIN: 'the host name could not be resolved',
  EHOSTUNREACH: 'the host is unreachable',
  ENETUNREACH: 'the network is unreachable',
  ETIMEDOUT: 'the connection timed out',
  UND_ERR_SOCKET: 'the connection was closed',
  UND_ERR_CONNECT_TIMEOUT: 'the connection timed out',
  CERT_HAS_EXPIRED: 'its TLS certificate has expired',
  DEPTH_ZERO_SELF_SIGNED_CERT: 'its TLS certificate is self-signed',
}

/** The first network error code found along an error's causes (fetch wraps them: TypeError → cause → code). */
function networkCode(error: unknown): string | null {
  for (let e = error, depth = 0; e && depth < 6; e = (e as { cause?: unknown }).cause, depth++) {
    const code = (e as { code?: unknown }).code
    if (typeof code === 'string' && code in NETWORK_CODES) return code
    const errors = (e as { errors?: unknown[] }).errors
    if (Array.isArray(errors)) for (const inner of errors) if (networkCode(inner)) return networkCode(inner)
  }
  return null
}

function upstreamMessage(error: APIError): string {
  const body = error.error as { message?: unknown } | undefined
  const message = typeof body?.message === 'string' ? body.message : ''
  return message.slice(0, 200)
}

/** One sentence saying why a call to `endpoint` failed, for `model` when given. */
export function describeModelServerFailure(error: unknown, endpoint: string, model?: string): string {
  if (error instanceof APIConnectionTimeoutError) return `${endpoint} did not answer in time`
  if (error instanceof APIError && error.status !== undefined) {
    const said = upstreamMessage(error)
    switch (error.status) {
      case 401:
        return 'the server refused the API key'
      case 403:
        return 'the server refused access with this API key'
      case 404:
        return model ? `the server has no model named "${model}"${said ? ` (${said})` : ''}` : `${endpoint} has no such endpoint: is OPENAI_BASE_URL right (often it ends in /v1)?`
      case 429:
        return 'the server is rate limiting this API key (or its quota is used up)'
      default:
        return `the server answered HTTP ${error.status}${said ? `: ${said}` : ''}`
    }
  }
  const code = networkCode(error)
  if (code) return `could not reach ${endpoint}: ${NETWORK_CODES[code]}`
  if (error instanceof APIError) return `could not reach ${endpoint}: ${error.message}`
  const message = error instanceof Error ? error.message : String(error)
  return `the call to ${endpoint} failed: ${message.slice(0, 200)}`
}
