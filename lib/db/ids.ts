import { randomFillSync } from 'node:crypto'

let counter = 0

// Random bytes drawn 4 KB at a time (as Node's randomUUID does): one system call for 512 ids instead of one each,
// several ids being made for every question answered
const POOL_BYTES = 4096
const pool = Buffer.allocUnsafe(POOL_BYTES)
let offset = POOL_BYTES

function random64(): bigint {
  if (offset === POOL_BYTES) {
    randomFillSync(pool)
    offset = 0
  }
  const value = pool.readBigUInt64BE(offset)
  offset += 8
  return value
}

/**
 * A new id shaped like Prisma's cuid() defaults (25 lowercase alphanumerics starting with "c"), made here when a row's
 * id must be known before it is inserted (its original is stored first) or in bulk, in order.
 */
export function newId(): string {
  counter = (counter + 1) % 1_679_616 // 36^4
  const time = Date.now().toString(36).padStart(9, '0').slice(-9)
  const count = counter.toString(36).padStart(4, '0')
  const random = random64().toString(36).padStart(11, '0').slice(-11)
  return `c${time}${count}${random}`
}
