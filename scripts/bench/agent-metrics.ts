// BENCH_METRICS=paired npm run bench:agent (issue 27): what the Prometheus metrics cost an agent query, measured in
// the same run: streaming questions of one scenario asked in pairs, one with the service's metrics as they are, one
// with every metric replaced by a no-op (the routes read them from one global, lib/metrics/registry.ts), the order of
// each pair alternating. Prints both p50 overheads, the median paired difference and the ratio.
import { metrics, type Metrics } from '@/lib/metrics/registry'

const PAIRS = 100

type Sample = { total: number; model: number }
type Ask = () => Promise<Sample>

/** A metric that records nothing, whatever it is asked. */
const inert = { observe() {}, inc() {}, set() {}, labels() { return inert }, startTimer() { return () => 0 } }

function useMetrics(on: boolean, real: Metrics): void {
  const store = globalThis as { __agentMetrics?: Metrics }
  store.__agentMetrics = on ? real : (new Proxy(real, { get: (target, key) => (key === 'registry' ? target.registry : inert) }) as Metrics)
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]

export async function pairedMetricsCost(label: string, ask: Ask): Promise<string> {
  const real = metrics()
  const on: number[] = []
  const off: number[] = []
  try {
    for (let i = 0; i < PAIRS; i++) {
      for (const withMetrics of i % 2 === 0 ? [true, false] : [false, true]) {
        useMetrics(withMetrics, real)
        const s = await ask()
        ;(withMetrics ? on : off).push(s.total - s.model)
      }
    }
  } finally {
    useMetrics(true, real)
  }
  const differences = on.map((x, i) => x - off[i])
  return [
    `Metrics cost (BENCH_METRICS=paired; ${PAIRS} pairs of streaming questions, ${label}, order alternating):`,
    '',
    '| streaming overhead p50, metrics on | metrics off | median paired difference | on/off |',
    '|---|---|---|---|',
    `| ${median(on).toFixed(1)} ms | ${median(off).toFixed(1)} ms | ${median(differences).toFixed(2)} ms | ${(median(on) / median(off)).toFixed(3)} |`,
  ].join('\n')
}
