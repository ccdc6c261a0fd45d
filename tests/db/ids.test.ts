import { describe, expect, it } from 'vitest'
import { newId } from '@/lib/db/ids'

describe('newId', () => {
  it('makes cuid-shaped ids, all different, in order of creation, across several draws of random bytes', () => {
    const ids = Array.from({ length: 3_000 }, () => newId())
    for (const id of ids) expect(id).toMatch(/^c[0-9a-z]{24}$/)
    expect(new Set(ids).size).toBe(ids.length)
    expect([...ids].sort()).toEqual(ids)
    // the random part (the last 11 characters) repeats neither within a draw nor across draws
    expect(new Set(ids.map(id => id.slice(-11))).size).toBe(ids.length)
  })
})
