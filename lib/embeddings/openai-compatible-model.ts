import { APICallError, type EmbeddingModel } from 'ai'

/** The ai SDK's embedding model interface, the one `embedMany` calls. */
export type EmbeddingModelV3 = Extract<EmbeddingModel, { specificationVersion: 'v3' }>

export interface EmbeddingModelSettings {
  /** The API's base, e.g. https://api.openai.com/v1 (…/embeddings is appended). */
  baseURL: string
  apiKey: string
  model: string
  dimensions: number
  fetch: typeof globalThis.fetch
}

// What OpenAI's own API and clients use: a request may carry 2,048 inputs
const MAX_INPUTS_PER_CALL = 2048

/**
 * An OpenAI-compatible `/embeddings` model for the ai SDK that asks for the vectors in base64 (little-endian float32),
 * as OpenAI's own Python client does by default: @ai-sdk/openai asks for decimal text, ~14 KB of JSON a 1536-dimension
 * vector, which the SDK then checks number by number with zod; base64 is ~8 KB a vector, read in microseconds (issue
 * 28: 0.3 against 0.02 ms of CPU a chunk, and as much again for the server to write it). A server that ignores
 * `encoding_format` and answers with numbers is read too. Errors are the SDK's `APICallError` (so `embedMany` retries
 * a 408, 409, 429, 5xx or a failed connection as it would with @ai-sdk/openai), its message the server's.
 */
export function openAICompatibleEmbeddingModel(settings: EmbeddingModelSettings): EmbeddingModelV3 {
  const url = `${settings.baseURL.replace(/\/+$/, '')}/embeddings`
  return {
    specificationVersion: 'v3',
    provider: 'openai.embedding',
    modelId: settings.model,
    maxEmbeddingsPerCall: MAX_INPUTS_PER_CALL,
    supportsParallelCalls: true,
    async doEmbed({ values, abortSignal, headers }) {
      const call = (format: EncodingFormat) => requestEmbeddings(settings, url, { values, format, abortSignal, headers })
      if (!numbersOnly.has(url)) {
        const answer = await call('base64')
        if (!(answer instanceof APICallError)) return answer
      }
      const answer = await call('float')
      if (answer instanceof APICallError) throw answer // not for numbers: a refusal of them is thrown
      numbersOnly.add(url)
      return answer
    },
  }
}

type EncodingFormat = 'base64' | 'float'
type Answer = Awaited<ReturnType<EmbeddingModelV3['doEmbed']>>

/** Servers (by their …/embeddings URL) that refused a base64 request and answered the same for numbers: asked for numbers from then on. */
const numbersOnly = new Set<string>()

/**
 * The server's answer: its vectors, or, to a base64 request refused with a 400 or 422 (a server whose strict schema
 * does not know the field), that refusal, returned rather than thrown so that the model itself asks again for numbers
 * (embedMany retries only 408, 409, 429 and 5xx, seconds apart). Any other failure is thrown.
 */
async function requestEmbeddings(
  settings: EmbeddingModelSettings,
  url: string,
  request: { values: string[]; format: EncodingFormat; abortSignal?: AbortSignal; headers?: Record<string, string | undefined> },
): Promise<Answer | APICallError> {
  const { values, format, abortSignal, headers } = request
  const body = { model: settings.model, input: values, encoding_format: format, dimensions: settings.dimensions }
  const call = { url, requestBodyValues: { ...body, input: `${values.length} texts` } }
  let response: Response
  try {
    response = await settings.fetch(url, {
      method: 'POST',
      headers: { ...definedOf(headers), authorization: `Bearer ${settings.apiKey}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
      signal: abortSignal,
    })
  } catch (error) {
    if (abortSignal?.aborted) throw error
    throw new APICallError({ ...call, message: `Cannot connect to the embeddings API: ${messageOf(error)}`, cause: error, isRetryable: true })
  }
  const text = await response.text()
  const responseHeaders = Object.fromEntries(response.headers)
  if (!response.ok) {
    const error = new APICallError({ ...call, message: errorMessageOf(text) ?? (response.statusText || `HTTP ${response.status}`), statusCode: response.status, responseHeaders, responseBody: text })
    if (format === 'base64' && (response.status === 400 || response.status === 422)) return error
    throw error
  }
  const parsed = parseResponse(text, values.length)
  if (typeof parsed === 'string') throw new APICallError({ ...call, message: parsed, statusCode: response.status, responseHeaders, responseBody: text.slice(0, 500), isRetryable: false })
  return { embeddings: parsed.embeddings, usage: parsed.tokens === undefined ? undefined : { tokens: parsed.tokens }, response: { headers: responseHeaders }, warnings: [] }
}

/** The response's vectors in the inputs' order, or what is wrong with it. */
function parseResponse(text: string, inputs: number): { embeddings: number[][]; tokens?: number } | string {
  let json: unknown
  try {
    json = JSON.parse(text)
  } catch {
    return 'The embeddings API answered with invalid JSON'
  }
  const data = (json as { data?: unknown })?.data
  if (!Array.isArray(data)) return 'The embeddings API answered without a "data" list'
  const embeddings: number[][] = new Array(data.length)
  for (const [position, item] of data.entries()) {
    const index = typeof item?.index === 'number' ? item.index : position
    const vector = vectorOf(item?.embedding)
    if (!vector || !Number.isInteger(index) || index < 0 || index >= data.length) return `The embeddings API answered with an invalid item at position ${position}`
    embeddings[index] = vector
  }
  if (data.length !== inputs || embeddings.some(e => e === undefined)) return `The embeddings API answered ${data.length} vectors for ${inputs} texts`
  const tokens = (json as { usage?: { prompt_tokens?: unknown } }).usage?.prompt_tokens
  return { embeddings, tokens: typeof tokens === 'number' ? tokens : undefined }
}

/** A vector from base64 (float32, little-endian) or from a list of numbers; null when it is neither. */
function vectorOf(embedding: unknown): number[] | null {
  if (typeof embedding === 'string') {
    const bytes = Buffer.from(embedding, 'base64')
    if (bytes.length % 4 !== 0) return null
    const vector: number[] = new Array(bytes.length / 4)
    for (let i = 0; i < vector.length; i++) vector[i] = bytes.readFloatLE(4 * i)
    return vector.every(Number.isFinite) ? vector : null
  }
  if (Array.isArray(embedding) && embedding.every(x => typeof x === 'number' && Number.isFinite(x))) return embedding
  return null
}

/** OpenAI's error body `{"error": {"message": …}}` (most compatible servers send it), else a short plain body. */
function errorMessageOf(text: string): string | undefined {
  try {
    const message = (JSON.parse(text) as { error?: { message?: unknown } })?.error?.message
    if (typeof message === 'string' && message) return message
  } catch {
    // not JSON: a proxy's page, a plain text
  }
  const plain = text.trim()
  return plain && plain.length <= 200 && !plain.startsWith('<') ? plain : undefined
}

function definedOf(headers: Record<string, string | undefined> = {}): Record<string, string> {
  return Object.fromEntries(Object.entries(headers).filter((entry): entry is [string, string] => entry[1] !== undefined))
}

function messageOf(error: unknown): string {
  const cause = (error as { cause?: unknown })?.cause
  const base = error instanceof Error ? error.message : String(error)
  return cause instanceof Error && cause.message !== base ? `${base} (${cause.message})` : base
}
