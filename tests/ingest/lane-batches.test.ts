// A worker lane claims its next batch before it writes the one it prepared, and prepares the new one while that one
// is written (lib/ingest/lane-batches.ts): on the embedded database a claim sent after the write would wait for it.
import { describe, expect, test } from 'vitest'
import type { Datasource } from '@/lib/generated/prisma/client'
import { LaneBatches, type ClaimedBatch } from '@/lib/ingest/lane-batches'

function lane(batches: number) {
  const log: string[] = []
  const writes: { release(): void }[] = []
  let claimed = 0
  const claim = async (): Promise<ClaimedBatch | null> => {
    if (claimed === batches) return log.push('claim: none'), null
    log.push(`claim ${++claimed}`)
    return { jobs: [{ id: String(claimed) } as Datasource] }
  }
  const prepare = async ({ jobs: [job] }: ClaimedBatch) => {
    log.push(`prepare ${job.id}`)
    await new Promise(resolve => setTimeout(resolve, 5))
    log.push(`prepared ${job.id}`)
    return {
      write: () => {
        log.push(`write ${job.id}`)
        return new Promise<never[]>(resolve => writes.push({ release: () => (log.push(`written ${job.id}`), resolve([])) }))
      },
    }
  }
  return { log, writes, claim, batches: new LaneBatches('test-worker', prepare) }
}

describe("a lane's batches", () => {
  test('the next batch is claimed before the prepared one is written, and prepared while it is written', async () => {
    const { log, writes, claim, batches } = lane(4)
    expect(await batches.next(claim)).toBe(true)
    expect(await batches.next(claim)).toBe(true)
    // batch 1's write has not ended, yet batch 2 is prepared
    expect(log).toEqual(['claim 1', 'prepare 1', 'prepared 1', 'claim 2', 'write 1', 'prepare 2', 'prepared 2'])
    expect(await batches.next(claim)).toBe(true)
    // two writes under way (a slow model answers one batch while the next one's request goes)
    expect(log.slice(7)).toEqual(['claim 3', 'write 2', 'prepare 3', 'prepared 3'])
    // but not three: the lane claims again only once batch 1 is written
    const fourth = batches.next(claim)
    await new Promise(resolve => setTimeout(resolve, 10))
    expect(log).toHaveLength(11)
    writes[0].release()
    expect(await fourth).toBe(true)
    expect(log.slice(11)).toEqual(['written 1', 'claim 4', 'write 3', 'prepare 4', 'prepared 4'])
    writes[1].release()
    const last = batches.next(claim)
    await new Promise(resolve => setTimeout(resolve, 10))
    // nothing more was due: the last prepared batch is written, and the lane waits for every write before it idles
    expect(log.slice(16)).toEqual(['written 2', 'claim: none', 'write 4'])
    writes[2].release()
    writes[3].release()
    expect(await last).toBe(false)
    expect(log.filter(l => l.startsWith('written'))).toEqual(['written 1', 'written 2', 'written 3', 'written 4'])
  })

  test('a lane claims 16 jobs first and doubles each full claim up to its most; a claim that finds fewer starts over at 16', async () => {
    const limits: number[] = []
    let due = 16 + 32 + 64 + 64 + 10
    const claim = async (limit: number): Promise<ClaimedBatch | null> => {
      limits.push(limit)
      const n = Math.min(limit, due)
      due -= n
      return n === 0 ? null : { jobs: Array.from({ length: n }, (_, i) => ({ id: `${limits.length}-${i}` }) as Datasource) }
    }
    const batches = new LaneBatches('test-worker', async () => ({ write: async () => [] }), 64)
    while (await batches.next(claim));
    // 64 is this lane's most; the claim of 64 that found 10 ends the growth, and the next one (finding none) asks 16 again
    expect(limits).toEqual([16, 32, 64, 64, 64, 16])
    due = 40
    limits.length = 0
    while (await batches.next(claim));
    expect(limits).toEqual([16, 32, 16])
  })

  test('a failed claim still writes the batch prepared before it; end() writes what is left', async () => {
    const { log, writes, claim, batches } = lane(1)
    await batches.next(claim)
    await expect(batches.next(() => Promise.reject(new Error('database gone')))).rejects.toThrow('database gone')
    expect(log.at(-1)).toBe('write 1')
    const ended = batches.end()
    writes.forEach(w => w.release())
    await ended
    expect(log.at(-1)).toBe('written 1')
  })
})
