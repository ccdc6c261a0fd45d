// How long reading a file holds the event loop, as the worker reads it (the loader, then the chunking that yields):
// the longest stretch between two ticks of a 5 ms timer, over two rounds (the first pays the parsers' warm-up).
//   node --conditions=react-server --import tsx scripts/reliability/read-hold.ts <file> <content type>
import fs from 'node:fs'
import { chunkingFor, chunkSectionsYielding } from '@/lib/ingest/chunker'
import { loadOriginal } from '@/lib/ingest/loaders'

const [file, contentType] = process.argv.slice(2)
if (!file || !contentType) throw new Error('usage: read-hold.ts <file> <content type>')
const data = new Uint8Array(fs.readFileSync(file))

for (const round of [1, 2]) {
  let last = performance.now()
  let longest = 0
  const timer = setInterval(() => {
    const now = performance.now()
    longest = Math.max(longest, now - last)
    last = now
  }, 5)
  const started = performance.now()
  const sections = await loadOriginal(data, contentType)
  const loaded = performance.now()
  const chunks = await chunkSectionsYielding(sections, chunkingFor({}))
  clearInterval(timer)
  longest = Math.max(longest, performance.now() - last)
  const ms = (from: number, to: number) => Math.round(to - from)
  console.log(JSON.stringify({ round, readMs: ms(started, loaded), chunkMs: ms(loaded, performance.now()), chunks: chunks.length, longestHoldMs: Math.round(longest) }))
}
process.exit(0) // the reading threads are let go after 30 s idle
