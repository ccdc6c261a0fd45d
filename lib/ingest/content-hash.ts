import { createHash } from 'node:crypto'
import type { ChunkingOptions } from './chunker'
import type { Section } from './sections'

/**
 * What the stored chunks of a datasource were made from: the extracted text with its metadata, the chunking
 * parameters, the embeddings model (or none) and the custom id the chunks carry. Equal hashes mean a re-sync
 * would write the same chunks, so it is skipped.
 */
export function contentHash(input: { sections: Section[]; chunking: ChunkingOptions; embeddingsModel: string | null; customId: string | null }): string {
  const hash = createHash('sha256')
  hash.update(JSON.stringify({ v: 1, chunking: input.chunking, embeddings: input.embeddingsModel, customId: input.customId }))
  for (const section of input.sections) {
    hash.update('\u0000')
    hash.update(JSON.stringify(section.metadata))
    hash.update('\u0000')
    hash.update(section.text)
  }
  return hash.digest('hex')
}
