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

/** The model server's state, probed at most once per interval (a caller in between gets the last result). */
export async function probeModelServer(): Promise<ModelProbe> {
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
  return state.inFlight
}

/**
 * The same, for a page render, which must not wait for a hanging server: a new probe is awaited at most `waitMs`,
 * then the previous result is taken (null when there is none yet: nothing is known to be wrong).
 */
export function recentModelProbe(waitMs: number): Promise<ModelProbe | null> {
  const settings = settingsOf()
  const previous = () => (state.result && state.settings === settings ? state.result : null)
  return Promise.race([probeModelServer(), new Promise<ModelProbe | null>(resolve => setTimeout(() => resolve(previous()), waitMs).unref())])
}

/** Tests: forget the last probe. */
export function forgetModelProbe(): void {
  Object.assign(state, { result: null, settings: '', takenAt: 0 })
}
