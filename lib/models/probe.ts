import { config } from '@/lib/config'
import { modelServer } from './client'
import { describeModelServerFailure } from './failure-words'

// Is the model server answering (issue 27)? /api/health?deep=1 and the dashboard's banner ask this often, the
// server must not be asked as often: one probe at most per HEALTH_PROBE_INTERVAL_MS and never two in flight; every
// caller in between gets the last result. The probe is the cheapest truth: the chat side lists the server's models
// (no tokens spent, the key checked), the embeddings side embeds one word with the configured model.

export interface ServerCheck {
  status: 'up' | 'down' | 'not_configured'
  /** Why it is down (plain words), or null. */
  message: string | null
  latencyMs: number | null
  checkedAt: string
}

export interface ModelProbe {
  chat: ServerCheck
  embeddings: ServerCheck
}

interface ProbeState {
  result: ModelProbe | null
  /** The settings the result was taken with: a changed OPENAI_BASE_URL makes it stale at once. */
  settings: string
  takenAt: number
  inFlight: Promise<ModelProbe> | null
}

// on globalThis: the routes and the dashboard's layout are separate bundles of one process
const holder = globalThis as typeof globalThis & { __adsModelProbe?: ProbeState }
const state: ProbeState = (holder.__adsModelProbe ??= { result: null, settings: '', takenAt: 0, inFlight: null })

const settingsOf = () => {
  const env = config()
  return [env.OPENAI_BASE_URL, env.OPENAI_API_KEY, env.EMBEDDINGS_MODEL, env.EMBEDDINGS_DIMENSIONS].join('\u0000')
}

async function timed(call: () => Promise<unknown>, describe: (error: unknown) => string): Promise<ServerCheck> {
  const started = performance.now()
  const checkedAt = new Date().toISOString()
  try {
    await call()
    return { status: 'up', message: null, latencyMs: Math.round(performance.now() - started), checkedAt }
  } catch (error) {
    return { status: 'down', message: describe(error), latencyMs: null, checkedAt }
  }
}

async function runProbe(): Promise<ModelProbe> {
  const env = config()
  const server = modelServer({ timeoutMs: env.HEALTH_PROBE_TIMEOUT_MS })
  if (!server) {
    const none: ServerCheck = { status: 'not_configured', message: 'No model server is configured: set OPENAI_API_KEY (and OPENAI_BASE_URL)', latencyMs: null, checkedAt: new Date().toISOString() }
    return { chat: none, embeddings: none }
  }
  const { client, endpoint } = server
  const [chat, embeddings] = await Promise.all([
    timed(() => client.models.list(), error => describeModelServerFailure(error, endpoint)),
    timed(
      () => client.embeddings.create({ model: env.EMBEDDINGS_MODEL, input: 'ping', dimensions: env.EMBEDDINGS_DIMENSIONS, encoding_format: 'float' }),
      error => describeModelServerFailure(error, endpoint, env.EMBEDDINGS_MODEL),
    ),
  ])
  return { chat, embeddings }
}

/**
 * The model server's state, probed at most once per interval. `waitMs`: how long a caller that would trigger a new
 * probe waits for it before taking the previous result (a page render must not wait for a hanging server).
 */
export async function probeModelServer(options: { waitMs?: number } = {}): Promise<ModelProbe> {
  const settings = settingsOf()
  const fresh = state.result && state.settings === settings && performance.now() - state.takenAt < config().HEALTH_PROBE_INTERVAL_MS
  if (fresh) return state.result!
  if (!state.inFlight) {
    state.inFlight = runProbe()
      .then(result => {
        Object.assign(state, { result, settings, takenAt: performance.now() })
        return result
      })
      .finally(() => {
        state.inFlight = null
      })
  }
  const probe = state.inFlight
  if (options.waitMs === undefined || !state.result) return probe
  const previous = state.result
  return Promise.race([probe, new Promise<ModelProbe>(resolve => setTimeout(() => resolve(previous), options.waitMs).unref())])
}

/** Tests: forget the last probe. */
export function forgetModelProbe(): void {
  Object.assign(state, { result: null, settings: '', takenAt: 0 })
}
