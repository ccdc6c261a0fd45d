/**
 * pgvector's binary form of a vector (int16 dimensions, int16 unused, float4 big-endian values), for a `$n::vector`
 * parameter. node-postgres sends a Buffer as binary, and lib/db/client.ts makes PGlite do the same: the server then
 * skips parsing thousands of floats from text.
 */
export function toVectorBinary(values: number[]): Buffer {
  const buffer = Buffer.allocUnsafe(4 + 4 * values.length)
  buffer.writeInt16BE(values.length, 0)
  buffer.writeInt16BE(0, 2)
  for (let i = 0; i < values.length; i++) buffer.writeFloatBE(values[i], 4 + 4 * i)
  return buffer
}
