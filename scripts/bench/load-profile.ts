// Where the server's CPU goes under bench:load (`--profile DIR`): a V8 CPU profile of the built app, self time by
// layer (each node_modules package; the app's own bundled chunks, which hold Next, the ai SDK and lib/; Node's
// internals; the garbage collector; V8's own), then the functions with the most self time.
import fs from 'node:fs'
import path from 'node:path'
import type { CpuProfile, ProfileNode } from './ingest-profile/categories'

function layerOf(frame: ProfileNode['callFrame']): string {
  const { url, functionName } = frame
  if (!url) return functionName.startsWith('(') ? functionName : '(native)'
  const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url)
  if (pkg) return pkg[1]
  if (url.includes('/.next/server/')) return 'app chunks (Next, ai SDK, lib/)'
  if (url.startsWith('node:')) return `node:${url.slice(5).split('/')[0] === 'internal' ? url.slice(5).split('/').slice(0, 2).join('/') : url.slice(5)}`
  return url.replace(/^file:\/\//, '').split('/').slice(-2).join('/')
}

export function summarizeServerProfile(profile: CpuProfile, top = 20): string {
  const byId = new Map(profile.nodes.map(n => [n.id, n]))
  const self = new Map<number, number>()
  profile.samples.forEach((id, i) => self.set(id, (self.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0)))
  const layers = new Map<string, number>()
  const functions = new Map<string, number>()
  let busy = 0
  for (const [id, us] of self) {
    const frame = byId.get(id)!.callFrame
    if (frame.functionName === '(idle)') continue
    busy += us
    const layer = layerOf(frame)
    layers.set(layer, (layers.get(layer) ?? 0) + us)
    const name = `${frame.functionName || '(anonymous)'} ${layer === 'app chunks (Next, ai SDK, lib/)' ? frame.url.split('/').pop() : layer}:${frame.lineNumber + 1}`
    functions.set(name, (functions.get(name) ?? 0) + us)
  }
  const table = (title: string, rows: Map<string, number>, n: number) => [
    `| ${title} | CPU ms | share |`, '|---|---|---|',
    ...[...rows].sort((a, b) => b[1] - a[1]).slice(0, n).map(([k, us]) => `| ${k} | ${(us / 1000).toFixed(0)} | ${((100 * us) / busy).toFixed(1)} % |`),
  ].join('\n')
  return [`Busy: ${(busy / 1000).toFixed(0)} ms of CPU.`, '', table('layer', layers, 15), '', table('function (self time)', functions, top)].join('\n')
}

// One profile per thread of the profiled server (CPU.<date>.<time>.<pid>.<thread>.<seq>.cpuprofile): the main thread,
// the embedded database's thread (lib/db/pglite-thread.ts), any PDF reading thread
export function printProfile(dir: string): void {
  const files = fs.readdirSync(dir).filter(f => f.endsWith('.cpuprofile')).map(f => path.join(dir, f)).sort((a, b) => fs.statSync(b).mtimeMs - fs.statSync(a).mtimeMs)
  if (files.length === 0) return console.log(`no profile was written in ${dir}`)
  const pid = path.basename(files[0]).split('.')[3]
  const threads = files.filter(f => path.basename(f).split('.')[3] === pid).sort()
  for (const file of threads) {
    const thread = Number(path.basename(file).split('.')[4])
    console.log(`\nThe server's CPU profile, ${thread === 0 ? 'main thread' : `thread ${thread}`} (${file}, start and seeding excluded):\n`)
    console.log(summarizeServerProfile(JSON.parse(fs.readFileSync(file, 'utf8'))))
  }
}
