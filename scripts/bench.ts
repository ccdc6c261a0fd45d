// `npm run bench [ingest|query|agent]`: runs the named benchmarks (all by default) and prints their figures.
// Each lives in scripts/bench/<name>.ts and exports run(); each runs in its own process, with its own database.
// `npm run bench -- ingest-profile [--docs N] [--compare DIR]` (run only when named): where each chunk's CPU goes on
// the ingest path, on real text; options after the name go to the benchmark's run().
// docs/benchmarks.md records the results.
import { spawnSync } from 'node:child_process'

const ALL = ['ingest', 'query', 'agent'] as const
const ON_REQUEST = ['load', 'pdf-read', 'ingest-profile', 'retrieval', 'pglite-ceiling', 'ocr', 'floor'] as const
// Benchmarks that call the route handlers in-process run them as `npm start` does: with NODE_ENV=production, the
// settings are read once (lib/config.ts), not checked against the environment on each call (~0.5 ms a question)
const AS_IN_PRODUCTION: readonly string[] = ['agent', 'ingest-profile']

async function main() {
  const args = process.argv.slice(2)
  const firstOption = args.findIndex(a => a.startsWith('-'))
  const wanted = firstOption < 0 ? args : args.slice(0, firstOption)
  const options = firstOption < 0 ? [] : args.slice(firstOption)
  for (const name of wanted) {
    if (![...ALL, ...ON_REQUEST].includes(name as never)) {
      console.error(`Unknown benchmark "${name}"; choose from ${[...ALL, ...ON_REQUEST].join(', ')}`)
      process.exit(2)
    }
  }
  if (wanted.length === 1) {
    if (AS_IN_PRODUCTION.includes(wanted[0])) Object.assign(process.env, { NODE_ENV: 'production' })
    const bench = (await import(`./bench/${wanted[0]}.ts`)) as { run: (argv?: string[]) => Promise<void> }
    await bench.run(options)
    process.exit(0)
  }
  let failed = false
  for (const name of wanted.length ? wanted : ALL) {
    console.log(`\n## ${name}\n`)
    const r = spawnSync(process.execPath, [...process.execArgv, process.argv[1], name, ...options], { stdio: 'inherit' })
    failed ||= r.status !== 0
  }
  process.exit(failed ? 1 : 0)
}

main().catch(error => {
  console.error(error)
  process.exit(1)
})
