// What upload-wait.ts and resync-wait.ts measure: how long API requests wait while a datasource is ingested, against a
// running server (`npm start`): every 50 ms `GET /api/datastores` and the datasource's `GET /api/datasources/{id}`
// until it is synched (or ends otherwise), and how long those answers took.

export interface Api {
  json(pathname: string, init?: RequestInit): Promise<Record<string, unknown>>
}

export function api(base: string, key: string): Api {
  const auth = { Authorization: `Bearer ${key}` }
  return {
    async json(pathname, init = {}) {
      const response = await fetch(new URL(pathname, base), { ...init, headers: { ...auth, ...init.headers } })
      if (!response.ok) throw new Error(`${pathname}: ${response.status} ${await response.text()}`)
      return (await response.json()) as Record<string, unknown>
    },
  }
}

const ENDED = ['synched', 'error', 'usage_limit_reached']

/**
 * Polls until the datasource ends, from `started` (performance.now() of the write that queued it); the answers'
 * percentiles and the slowest three (how long, when in seconds after `started`, and what).
 */
export async function answerWaits(client: Api, datasourceId: string, started: number) {
  const waits: number[] = []
  const slowest: { ms: number; atS: number; path: string }[] = []
  const timed = async <T>(pathname: string, ask: () => Promise<T>): Promise<T> => {
    const asked = performance.now()
    const result = await ask()
    const ms = performance.now() - asked
    waits.push(ms)
    slowest.push({ ms: Math.round(ms), atS: Number(((asked - started) / 1000).toFixed(1)), path: pathname })
    slowest.sort((a, b) => b.ms - a.ms).splice(3)
    return result
  }
  let status = ''
  // a queued re-synchronisation still reads synched until the worker claims it: wait for another status first
  let claimed = false
  while (!claimed || !ENDED.includes(status)) {
    await timed('/api/datastores', () => client.json('/api/datastores'))
    status = String((await timed('/api/datasources/{id}', () => client.json(`/api/datasources/${datasourceId}`))).status)
    claimed ||= !ENDED.includes(status)
    await new Promise(resolve => setTimeout(resolve, 50))
  }
  const sorted = [...waits].sort((a, b) => a - b)
  const at = (q: number) => Math.round(sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * q))])
  return {
    status,
    seconds: Number(((performance.now() - started) / 1000).toFixed(1)),
    requests: waits.length,
    p50Ms: at(0.5),
    p90Ms: at(0.9),
    slowestMs: Math.round(sorted.at(-1) ?? 0),
    over500Ms: waits.filter(w => w > 500).length,
    slowest,
  }
}
