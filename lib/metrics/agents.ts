import { metrics } from './registry'

// The agent query's measures: each phase's duration from the start of the model run, model calls by outcome and the
// tokens they used, by model id (never an agent or conversation id).

export type AgentPhase = 'rewrite' | 'retrieval' | 'first_token' | 'answer'

/** Observes phases as seconds since it was made (first_token: the first piece; answer: the whole answer); returns them. */
export function phaseTimer(started = performance.now()) {
  return {
    phase: (phase: AgentPhase) => {
      const seconds = (performance.now() - started) / 1000
      metrics().agentPhase.observe({ phase }, seconds)
      return seconds
    },
  }
}

/** One chat model call and the tokens it used. `outcome`: ok, or the failure's kind (timeout, failed, stopped…). */
export function recordModelCall(model: string, outcome: string, tokens: { promptTokens: number; completionTokens: number }): void {
  const m = metrics()
  m.modelCalls.inc({ model, outcome })
  if (tokens.promptTokens) m.modelTokens.inc({ model, kind: 'prompt' }, tokens.promptTokens)
  if (tokens.completionTokens) m.modelTokens.inc({ model, kind: 'completion' }, tokens.completionTokens)
}

/** A question refused because this process had AGENT_MAX_IN_FLIGHT in progress (lib/agents/admission.ts). */
export function recordOverloadRefusal(): void {
  metrics().rateLimitRefusals.inc({ limit: 'in_flight' })
}
