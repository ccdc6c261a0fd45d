import client from 'prom-client'

// The process's Prometheus metrics (GET /api/metrics, DESIGN.md §13): one registry per process, kept on globalThis
// because Next loads server modules more than once in one process. Labels never hold an id: routes are templates
// ("/api/agents/{id}/query"), models are model ids, kinds and outcomes are closed vocabularies.

export interface Metrics {
  registry: client.Registry
  httpDuration: client.Histogram<'route' | 'method' | 'status'>
  agentPhase: client.Histogram<'phase'>
  modelCalls: client.Counter<'model' | 'outcome'>
  modelTokens: client.Counter<'model' | 'kind'>
  embeddingsCalls: client.Counter<'outcome'>
  syncDuration: client.Histogram<'kind' | 'outcome'>
  webhookDeliveries: client.Counter<'outcome'>
  rateLimitRefusals: client.Counter<'limit'>
  searchRankings: client.Counter<'kind' | 'source'>
  searchMemoryKept: client.Gauge<'kind'>
}

const SECONDS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30]

function create(): Metrics {
  const registry = new client.Registry()
  client.collectDefaultMetrics({ register: registry })
  const on = { registers: [registry] }
  return {
    registry,
    httpDuration: new client.Histogram({ name: 'http_request_duration_seconds', help: 'API requests by route template, method and status class, until the answer (a stream: until it opens)', labelNames: ['route', 'method', 'status'], buckets: SECONDS, ...on }),
    agentPhase: new client.Histogram({ name: 'agent_query_phase_seconds', help: 'Agent query phases: rewrite, retrieval, first_token, answer', labelNames: ['phase'], buckets: SECONDS, ...on }),
    modelCalls: new client.Counter({ name: 'model_calls_total', help: 'Chat model calls by model id and outcome (ok, timeout, failed, stopped)', labelNames: ['model', 'outcome'], ...on }),
    modelTokens: new client.Counter({ name: 'model_tokens_total', help: 'Chat model tokens by model id and kind (prompt, completion)', labelNames: ['model', 'kind'], ...on }),
    embeddingsCalls: new client.Counter({ name: 'embeddings_calls_total', help: 'Embeddings calls by outcome', labelNames: ['outcome'], ...on }),
    syncDuration: new client.Histogram({ name: 'datasource_sync_duration_seconds', help: 'Datasource synchronisations by kind and outcome', labelNames: ['kind', 'outcome'], buckets: [0.1, 0.5, 1, 5, 15, 60, 300, 1800], ...on }),
    webhookDeliveries: new client.Counter({ name: 'webhook_deliveries_total', help: 'Webhook delivery attempts by outcome', labelNames: ['outcome'], ...on }),
    rateLimitRefusals: new client.Counter({ name: 'rate_limit_refusals_total', help: 'Requests refused by a rate limit', labelNames: ['limit'], ...on }),
    searchRankings: new client.Counter({ name: 'search_rankings_total', help: 'Search rankings by kind (words: BM25, meaning: vectors) and source (memory: kept in this process; statements)', labelNames: ['kind', 'source'], ...on }),
    searchMemoryKept: new client.Gauge({ name: 'search_memory_kept', help: 'What this process keeps in memory for search, by kind: chunks (BM25 postings, SEARCH_MEMORY_CHUNKS), embedding values', labelNames: ['kind'], ...on }),
  }
}

const store = globalThis as { __agentMetrics?: Metrics }

export function metrics(): Metrics {
  return (store.__agentMetrics ??= create())
}

/** The status class of an HTTP status: "2xx" … "5xx". */
export const statusClass = (status: number) => `${Math.floor(status / 100)}xx`
