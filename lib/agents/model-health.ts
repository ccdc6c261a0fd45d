import type { ModelFailureCause } from '@/lib/domain/errors'

// The model's latest failure and success in this process (issue 22), for operators: /api/health with details and
// the dashboard show the typed cause of the last failure, so "the model is down" reads as what it is.

export interface ModelHealth {
  lastFailure: { cause: ModelFailureCause; message: string; at: string } | null
  lastSuccessAt: string | null
}

const state: ModelHealth = { lastFailure: null, lastSuccessAt: null }

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
