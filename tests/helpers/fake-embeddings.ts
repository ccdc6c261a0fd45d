import { afterAll, beforeAll } from 'vitest'
import { startFakeOpenAI } from '@/e2e/support/fake-openai-server.mjs'

/**
 * The fake OpenAI-compatible server as this test file's embeddings provider (`dimensions` each), from its first test
 * to its last; `server()` gives it (to change its behaviour).
 */
export function useFakeEmbeddings(dimensions: number): { server: () => Awaited<ReturnType<typeof startFakeOpenAI>> } {
  let fake: Awaited<ReturnType<typeof startFakeOpenAI>>
  beforeAll(async () => {
    fake = await startFakeOpenAI()
    process.env.OPENAI_API_KEY = 'sk-test'
    process.env.OPENAI_BASE_URL = fake.baseURL
    process.env.EMBEDDINGS_DIMENSIONS = String(dimensions)
  })
  afterAll(async () => {
    delete process.env.OPENAI_API_KEY
    delete process.env.OPENAI_BASE_URL
    delete process.env.EMBEDDINGS_DIMENSIONS
    await fake.close()
  })
  return { server: () => fake }
}
