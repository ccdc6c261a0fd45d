import { randomBytes } from 'node:crypto'

let counter = 0

/**
 * A new id shaped like Prisma's cuid() defaults (25 lowercase alphanumerics starting with "c"), made here when a row's
 * id must be known before it is inserted (its original is stored first) or in bulk, in order.
 */
export function newId(): string {
  counter = (counter + 1) % 1_679_616 // 36^4
  const time = Date.now().toString(36).padStart(9, '0').slice(-9)
  const count = counter.toString(36).padStart(4, '0')
  const random = BigInt(`0x${randomBytes(8).toString('hex')}`).toString(36).padStart(11, '0').slice(-11)
  return `c${time}${count}${random}`
}
