import type { ModelFailureCause } from '@/lib/domain/errors'

// The model's latest failure and success in this process (issue 22), for operators: /api/health with details and
// the dashboard show the typed cause of the last failure, so "the model is down" reads as what it is.

export interface ModelHealth {
  lastFailure: { cause: ModelFailureCause; message: string; at: string } | null
  lastSuccessAt: string | null
}

// on globalThis: under `next start` the route handlers and the dashboard's pages are separate bundles of one process,
// each with its own copy of this module
const holder = globalThis as typeof globalThis & { __adsModelHealth?: ModelHealth }
const state: ModelHealth = (holder.__adsModelHealth ??= { lastFailure: null, lastSuccessAt: null })

export function recordModelFailure(cause: ModelFailureCause, message: string): void {
  // a visitor going away is no failure of the model
  if (cause.type === 'stopped') return
  state.lastFailure = { cause, message, at: new Date().toISOString() }
}

export function recordModelSuccess(): void {
  state.lastSuccessAt = new Date().toISOString()
}

export function modelHealth(): ModelHealth {
  return { lastFailure: state.lastFailure && { ...state.lastFailure }, lastSuccessAt: state.lastSuccessAt }
}

/**
 * What the dashboard says on every page while the model's latest call failed (no success since): the typed cause in
 * the operator's words, so that "agents do not answer" reads as what it is. Null once a call succeeds again.
 */
export function modelFailureNotice(): string | null {
  const { lastFailure, lastSuccessAt } = state
  if (!lastFailure || (lastSuccessAt && lastSuccessAt > lastFailure.at)) return null
  const at = lastFailure.at.slice(11, 16)
  return `The model's last answer failed (${at} UTC, ${describeCause(lastFailure.cause)}): ${lastFailure.message}`
}

function describeCause(cause: ModelFailureCause): string {
  switch (cause.type) {
    case 'http_status':
      return `HTTP ${cause.status}`
    case 'dropped_stream':
      return 'dropped stream'
    default:
      return cause.type.replace('_', ' ')
  }
}
