// The benchmarks' synthetic corpus: English words, topics, seeded.
import { Tiktoken } from 'js-tiktoken/lite'
import cl100kBase from 'js-tiktoken/ranks/cl100k_base'

/**
 * Lowercase English words that are single tokens of cl100k_base (" house", " river"…): text made of them tokenizes,
 * stems and ranks like English prose, which made-up words would not.
 */
function englishWords(): string[] {
  const encoder = new Tiktoken(cl100kBase)
  const stop = new Set(FUNCTION_WORDS)
  const words = new Set<string>()
  for (let rank = 0; rank < 100_000; rank++) {
    let piece: string
    try {
      piece = encoder.decode([rank])
    } catch {
      continue
    }
    if (/^ [a-z]{4,12}$/.test(piece) && !stop.has(piece.trim())) words.add(piece.trim())
  }
  return [...words].sort()
}

export function seededRandom(seed: number): () => number {
  let a = seed >>> 0
  return () => {
    // mulberry32
    a = (a + 0x6d2b79f5) >>> 0
    let t = a
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

export const FUNCTION_WORDS = 'the of and to in is for with on that by as at from this are be or an how does relate what which'.split(' ')

export class Corpus {
  readonly random: () => number
  readonly general: string[]
  readonly topics: string[][]
  private readonly zipf: number[]

  constructor({ seed = 42, vocabulary = 8000, topics = 300, wordsPerTopic = 40 } = {}) {
    this.random = seededRandom(seed)
    const words = englishWords()
    // a seeded shuffle: the general vocabulary, then each topic's own words
    for (let i = words.length - 1; i > 0; i--) {
      const j = Math.floor(this.random() * (i + 1))
      ;[words[i], words[j]] = [words[j], words[i]]
    }
    if (words.length < vocabulary + topics * wordsPerTopic) throw new Error('not enough words for this corpus')
    this.general = words.slice(0, vocabulary)
    this.topics = Array.from({ length: topics }, (_, t) => words.slice(vocabulary + t * wordsPerTopic, vocabulary + (t + 1) * wordsPerTopic))
    // cumulative Zipf weights over the general vocabulary
    let sum = 0
    this.zipf = this.general.map((_, rank) => (sum += 1 / (rank + 1)))
  }

  pick<T>(items: T[]): T {
    return items[Math.floor(this.random() * items.length)]
  }

  generalWord(minRank = 0): string {
    const total = this.zipf[this.zipf.length - 1]
    const lower = minRank ? this.zipf[minRank - 1] : 0
    const x = lower + this.random() * (total - lower)
    let lo = minRank
    let hi = this.zipf.length - 1
    while (lo < hi) {
      const mid = (lo + hi) >> 1
      if (this.zipf[mid] < x) lo = mid + 1
      else hi = mid
    }
    return this.general[lo]
  }

  /**
   * About `words` words on `topic`: half from the topic's own words, the rest function words and words of the
   * general vocabulary, in sentences of 8 to 20 words and paragraphs of 3 to 6 sentences.
   */
  text(topic: number, words: number): string {
    const paragraphs: string[] = []
    let count = 0
    while (count < words) {
      const sentences: string[] = []
      const n = 3 + Math.floor(this.random() * 4)
      for (let s = 0; s < n && count < words; s++) {
        const len = 8 + Math.floor(this.random() * 13)
        const w: string[] = []
        for (let i = 0; i < len; i++) {
          const r = this.random()
          w.push(r < 0.5 ? this.pick(this.topics[topic]) : r < 0.65 ? this.pick(FUNCTION_WORDS) : this.pick(this.general))
        }
        count += len
        sentences.push(`${w[0][0].toUpperCase()}${w[0].slice(1)} ${w.slice(1).join(' ')}.`)
      }
      paragraphs.push(sentences.join(' '))
    }
    return paragraphs.join('\n\n')
  }

  /** A question-like query: a few words of one topic and a less common general word. */
  query(topic: number): string {
    const n = 2 + Math.floor(this.random() * 3)
    const words = Array.from({ length: n }, () => this.pick(this.topics[topic]))
    return `how does ${words.join(' ')} relate to ${this.generalWord(50)}`
  }
}
