import path from 'node:path'
import { z } from 'zod'

// Every setting of the service, read from the environment once. README.md and .env.example list the same names.
const flag = z.enum(['1', '0', 'true', 'false', 'on', 'off', 'yes', 'no', '']).transform(v => ['1', 'true', 'on', 'yes'].includes(v))
const positiveInt = z.coerce.number().int().positive()

const ConfigSchema = z.object({
  PORT: positiveInt.default(3000),
  DATA_DIR: z.string().default('./data'),
  DATABASE_URL: z.string().optional(),
  // connections each process (web or worker) opens to DATABASE_URL at most: processes × this < max_connections;
  // 2 or more, since a start-up step holds an advisory lock on one connection while it works on another
  DATABASE_POOL_SIZE: z.coerce.number().int().min(2).default(10),
  // statements that come again prepared on each PostgreSQL connection (lib/db/postgres-prepared.ts); off behind a
  // pooler that cannot keep them (PgBouncer in transaction mode before 1.21)
  DATABASE_PREPARED_STATEMENTS: z.enum(['on', 'off']).default('on'),
  WORKER: z.enum(['on', 'off']).default('on'),
  WORKER_CONCURRENCY: positiveInt.default(2),
  OPENAI_API_KEY: z.string().optional(),
  OPENAI_BASE_URL: z.string().optional(),
  EMBEDDINGS_MODEL: z.string().default('text-embedding-3-small'),
  EMBEDDINGS_DIMENSIONS: positiveInt.default(1536),
  MODEL_MAP: z.string().optional(),
  NEXTAUTH_SECRET: z.string().optional(),
  INIT_ADMIN_EMAIL: z.string().optional(),
  INIT_ADMIN_PASSWORD: z.string().optional(),
  INIT_API_KEY: z.string().optional(),
  CRAWLER_ALLOW_PRIVATE_HOSTS: flag.default(false),
  LIMIT_BODY_SIZE_MB: positiveInt.default(20),
  LIMIT_FILE_SIZE_MB: positiveInt.default(50),
  LIMIT_WEBSITE_PAGES: positiveInt.default(500),
  LIMIT_STORED_TOKENS: positiveInt.default(10_000_000),
  LIMIT_AGENT_QUERIES: positiveInt.default(10_000),
  LIMIT_PUBLIC_QUERIES_PER_MINUTE: positiveInt.default(20),
  LOG_LEVEL: z.enum(['debug', 'info', 'warn', 'error']).default('info'),
  // a monitor's token: GET /api/metrics (lib/metrics, 404 while unset) and GET /api/health?deep=1's details
  METRICS_TOKEN: z.string().min(16).optional(),
  // sign-in throttling (issue 24, lib/auth/sign-in-throttle.ts): password failures an account, and a client address,
  // may have within the window before its sign-in is refused until the window passes
  SIGN_IN_MAX_FAILURES: positiveInt.default(10),
  SIGN_IN_MAX_FAILURES_PER_ADDRESS: positiveInt.default(30),
  SIGN_IN_WINDOW_MINUTES: positiveInt.default(15),
  // single sign-on (issue 24, lib/auth/sso.ts): an OpenID Connect provider, on when the first three are set
  OIDC_ISSUER: z.string().url().optional(),
  OIDC_CLIENT_ID: z.string().optional(),
  OIDC_CLIENT_SECRET: z.string().optional(),
  OIDC_NAME: z.string().default('single sign-on'),
  OIDC_ALLOWED_DOMAINS: z.string().default(''),
  OIDC_DEFAULT_ROLE: z.enum(['owner', 'admin', 'editor', 'operator', 'viewer']).default('viewer'),
  OIDC_ORGANIZATION_ID: z.string().trim().min(1).optional(),
  // /api/health?deep=1 and the dashboard's banner (lib/models/probe.ts): the model server is probed at most once per
  // interval, each probe given this long
  HEALTH_PROBE_INTERVAL_MS: positiveInt.default(30_000),
  HEALTH_PROBE_TIMEOUT_MS: positiveInt.default(5_000),
  // traces (lib/tracing): OpenTelemetry spans sent over OTLP/HTTP when the endpoint is set; nothing is loaded otherwise
  OTEL_EXPORTER_OTLP_ENDPOINT: z.string().url().optional(),
  OTEL_SERVICE_NAME: z.string().default('agent-datastore-service'),
  // the audit log (lib/audit): entries older than this are removed by the worker
  AUDIT_RETENTION_DAYS: positiveInt.default(365),
  // ingestion (lib/ingest): job leases and retries, the web fetcher's bounds
  WORKER_LEASE_SECONDS: positiveInt.default(300),
  WORKER_MAX_ATTEMPTS: positiveInt.default(3),
  WORKER_RETRY_BASE_SECONDS: positiveInt.default(30),
  CRAWLER_TIMEOUT_SECONDS: positiveInt.default(15),
  CRAWLER_MAX_PAGE_MB: positiveInt.default(5),
  CRAWLER_CONCURRENCY_PER_HOST: positiveInt.default(2),
  // pages that need JavaScript (lib/ingest/web/render): auto renders a nearly empty app shell when a Chromium is found
  CRAWLER_RENDER: z.enum(['auto', 'always', 'never']).default('auto'),
  CRAWLER_RENDER_TIMEOUT_SECONDS: positiveInt.default(20),
  CHROMIUM_PATH: z.string().optional(),
  // text recognition (lib/ingest/loaders/ocr): recognitions at once per process, the longest one page may take
  OCR_CONCURRENCY: positiveInt.default(1),
  OCR_PAGE_TIMEOUT_SECONDS: positiveInt.default(60),
  // scheduled refreshes (lib/ingest/lifecycle/refresh.ts): how often due ones are queued, over how long they are spread
  REFRESH_CHECK_SECONDS: positiveInt.default(60),
  REFRESH_SPREAD_SECONDS: z.coerce.number().int().min(0).default(600),
  // outgoing webhooks (lib/webhooks): attempts, backoff (base × 2^(n−1), at most an hour), private receivers
  WEBHOOK_MAX_ATTEMPTS: positiveInt.default(10),
  WEBHOOK_RETRY_BASE_SECONDS: z.coerce.number().int().min(0).default(30),
  WEBHOOK_TIMEOUT_SECONDS: positiveInt.default(10),
  WEBHOOK_ALLOW_PRIVATE_HOSTS: flag.default(false),
  // agents (lib/agents): how long the model may stay silent, history sent to it, fragments retrieved per query
  AGENT_MODEL_TIMEOUT_SECONDS: positiveInt.default(60),
  AGENT_HISTORY_TOKENS: z.coerce.number().int().min(0).default(2000),
  AGENT_TOP_K: positiveInt.default(5),
  // the embedded database in a thread of its own (issue 28, lib/db/pglite-thread.ts); off: on the event loop
  DATABASE_THREAD: z.enum(['on', 'off']).default('on'),
  // a file where the embedded database's thread writes each statement's time (lib/db/pglite-thread-profile.ts), for
  // measurements: npm run bench:load -- --statements
  DATABASE_STATEMENT_PROFILE: z.string().min(1).optional(),
  // questions in progress in one process (issue 28, lib/agents/admission.ts); past it 503 with Retry-After
  AGENT_MAX_IN_FLIGHT: positiveInt.default(256),
  // agent tools (issue 25, lib/agents/tools): model steps per answer, each call's time, the response read and the
  // part of it the model is given, and whether tools may reach private networks
  AGENT_MAX_TOOL_STEPS: z.coerce.number().int().min(1).max(20).default(5),
  TOOLS_TIMEOUT_SECONDS: positiveInt.default(10),
  TOOLS_MAX_RESPONSE_KB: positiveInt.default(512),
  TOOLS_RESULT_CHARS: positiveInt.default(8000),
  TOOLS_ALLOW_PRIVATE_HOSTS: flag.default(false),
  // the chunks whose BM25 postings are kept in memory, all datastores together (issue 28, lib/search/bm25-memory.ts);
  // a larger datastore, and every one with 0, ranks by words with statements only
  SEARCH_MEMORY_CHUNKS: z.coerce.number().int().min(0).default(20_000),
  // retrieval (issue 13, lib/search/rerank.ts, lib/agents/standalone-question.ts): an optional reranker speaking the
  // common /rerank API, how many fused candidates it reorders, and the time it and the follow-up rewrite may take
  RERANK_BASE_URL: z.string().optional(),
  RERANK_MODEL: z.string().default('rerank'),
  RERANK_API_KEY: z.string().optional(),
  RERANK_TIMEOUT_MS: positiveInt.default(3000),
  RERANK_CANDIDATES: z.coerce.number().int().min(1).max(200).default(40),
  REWRITE_TIMEOUT_MS: positiveInt.default(4000),
  // Chaindesk compatibility (lib/http/cors.ts, lib/agents/conversation-views.ts): origins that may call the keyed
  // routes from a browser ("*" for any; the public agent routes answer any origin), and whether a public agent's
  // conversation is readable without a key by whoever holds its (unguessable) id, as Chaindesk's widget needs
  // Notion (lib/ingest/kinds/notion): where its API answers (a compatible server in tests) and the requests per second
  // each connection makes (Notion allows an average of 3)
  NOTION_API_URL: z.string().url().default('https://api.notion.com'),
  NOTION_REQUESTS_PER_SECOND: z.coerce.number().positive().max(100).default(3),
  CORS_ORIGINS: z.string().default(''),
  PUBLIC_CONVERSATION_READ: flag.default(true),
  // the support workflow (issue 23): e-mail to the team when a visitor asks for a person or a conversation is resolved
  SMTP_URL: z.string().optional(),
  SMTP_FROM: z.string().default('Agent service <no-reply@localhost>'),
  // issue 22: the furthest a visitor signature's expiry may lie ahead; a signature valid for longer is refused, so a
  // leaked one cannot serve for years
  VISITOR_TOKEN_MAX_DAYS: positiveInt.default(30),
})

export type Config = z.infer<typeof ConfigSchema>

const SETTINGS = Object.keys(ConfigSchema.shape) as (keyof Config)[]
let cached: { fingerprint: string; value: Config } | undefined
// The production server's environment is fixed once it runs (nothing of ours sets a setting at run time), so it
// reads the settings once: checking every setting in process.env on each call (each read a getenv) cost ~20 µs, and
// a question calls this dozens of times (2 % of the server's CPU under load, issue 28). Tests and scripts, which
// change settings between cases, keep the check.
const fixedEnvironment = process.env.NODE_ENV === 'production'

/**
 * The settings, validated. Outside production, re-read whenever one of them changes in process.env (tests change them
 * between cases); otherwise served from a cache, since request paths call this many times.
 */
export function config(): Config {
  if (fixedEnvironment && cached) return cached.value
  const fingerprint = SETTINGS.map(key => process.env[key] ?? '').join('\u0000')
  if (cached?.fingerprint === fingerprint) return cached.value
  const env = Object.fromEntries(SETTINGS.map(key => [key, process.env[key]]).filter(([, v]) => v !== undefined && v !== ''))
  const parsed = ConfigSchema.safeParse(env)
  if (!parsed.success) {
    const lines = parsed.error.issues.map(i => `  ${i.path.join('.')}: ${i.message}`)
    throw new Error(`Invalid configuration in the environment:\n${lines.join('\n')}`)
  }
  cached = { fingerprint, value: parsed.data }
  return parsed.data
}

export function dataDir(): string {
  return path.resolve(config().DATA_DIR)
}
