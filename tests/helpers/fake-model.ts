import { afterAll, beforeAll, beforeEach } from 'vitest'
import { startFakeOpenAI } from '@/e2e/support/fake-openai-server.mjs'

export type FakeOpenAI = Awaited<ReturnType<typeof startFakeOpenAI>>

/**
 * The fake OpenAI-compatible server for the tests of this file, configured as the service's model and embeddings
 * provider (64-dimension embeddings); reset before each test, removed with its settings after the file.
 */
export function useFakeModel(): { readonly fake: FakeOpenAI } {
  const holder = {} as { fake: FakeOpenAI }
  beforeAll(async () => {
    holder.fake = await startFakeOpenAI()
    process.env.OPENAI_API_KEY = 'sk-test'
    process.env.OPENAI_BASE_URL = holder.fake.baseURL
    process.env.EMBEDDINGS_DIMENSIONS = '64'
  })
  beforeEach(() => holder.fake.reset())
  afterAll(async () => {
    delete process.env.OPENAI_API_KEY
    delete process.env.OPENAI_BASE_URL
    delete process.env.EMBEDDINGS_DIMENSIONS
    await holder.fake?.close()
  })
  return holder
}
