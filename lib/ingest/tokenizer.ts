import { Tiktoken } from 'js-tiktoken/lite'
import cl100kBase from 'js-tiktoken/ranks/cl100k_base'

// The encoder's tables take ~0.3 s to build: once per process, on first use.
let encoder: Tiktoken | null = null

function cl100k(): Tiktoken {
  return (encoder ??= new Tiktoken(cl100kBase))
}

/** Tokens of `text` in cl100k_base (OpenAI's embeddings and chat models). Special-token text counts as plain text. */
export function countTokens(text: string): number {
  return cl100k().encode(text, [], []).length
}

export function encodeTokens(text: string): number[] {
  return cl100k().encode(text, [], [])
}

export function decodeTokens(tokens: number[]): string {
  return cl100k().decode(tokens)
}
