// `npm run bench [ingest|query|agent]`: runs the named benchmarks (all by default) and prints their figures.
// Each lives in scripts/bench/<name>.ts and exports run(); each runs in its own process, with its own database.
// docs/benchmarks.md records the results.
import { spawnSync } from 'node:child_process'

const ALL = ['ingest', 'query', 'agent'] as const

async function main() {
  const wanted = process.argv.slice(2)
  for (const name of wanted) {
    if (!(ALL as readonly string[]).includes(name)) {
      console.error(`Unknown benchmark "${name}"; choose from ${ALL.join(', ')}`)
      process.exit(2)
    }
  }
  if (wanted.length === 1) {
    const bench = (await import(`./bench/${wanted[0]}.ts`)) as { run: () => Promise<void> }
    await bench.run()
    process.exit(0)
  }
  let failed = false
  for (const name of wanted.length ? wanted : ALL) {
    console.log(`\n## ${name}\n`)
    const r = spawnSync(process.execPath, [...process.execArgv, process.argv[1], name], { stdio: 'inherit' })
    failed ||= r.status !== 0
  }
  process.exit(failed ? 1 : 0)
}

main().catch(error => {
  console.error(error)
  process.exit(1)
})
