import OpenAI from 'openai'
import { config } from '@/lib/config'
import { publicEndpoint } from '@/lib/agents/model-catalogue'

// The official `openai` SDK against OPENAI_BASE_URL (issue 27): it lists the server's models, which the `ai` SDK
// cannot, and makes the connection test's tiny calls. Answers and embeddings keep going through the `ai` SDK.

export interface ModelServer {
  client: OpenAI
  /** The endpoint as it may be shown: no credentials, query or fragment. */
  endpoint: string
}

/** The configured server, or null when no OPENAI_API_KEY is set. No retries: a probe or a test says what happened. */
export function modelServer(options: { timeoutMs: number }): ModelServer | null {
  const env = config()
  if (!env.OPENAI_API_KEY) return null
  return {
    client: new OpenAI({ apiKey: env.OPENAI_API_KEY, baseURL: env.OPENAI_BASE_URL, maxRetries: 0, timeout: options.timeoutMs }),
    endpoint: publicEndpoint(env.OPENAI_BASE_URL),
  }
}
