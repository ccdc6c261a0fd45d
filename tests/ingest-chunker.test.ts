import { describe, expect, test, vi } from 'vitest'
import { chunkingFor, chunkSections, chunkSectionsYielding } from '@/lib/ingest/chunker'
import { sentencesOf } from '@/lib/ingest/sentences'
import { countTokens, encodeTokens } from '@/lib/ingest/tokenizer'

const SUBJECTS = ['The kettle', 'A toaster', 'Our blender', 'The coffee grinder', 'This rice cooker', 'The waffle iron']
const VERBS = ['heats water', 'needs descaling', 'carries a warranty', 'ships worldwide', 'uses 1500 watts', 'is dishwasher safe']
const ENDINGS = ['in two minutes.', 'every month or so.', 'for two full years.', 'within five days!', 'at most, they say.', 'except the lid?']

/** Distinct, numbered sentences so each can be found again in the chunks. */
function sentence(i: number): string {
  return `${SUBJECTS[i % 6]} number ${i} ${VERBS[(i * 5) % 6]} ${ENDINGS[(i * 7) % 6]}`
}

function paragraphs(count: number, sentencesEach: number): string[] {
  let n = 0
  return Array.from({ length: count }, () => Array.from({ length: sentencesEach }, () => sentence(n++)).join(' '))
}

describe('the chunker', () => {
  test('every chunk fits the chunk size in cl100k_base tokens, and records its token count', () => {
    const text = paragraphs(60, 7).join('\n\n')
    for (const options of [{ chunkSize: 512, chunkOverlap: 64 }, { chunkSize: 100, chunkOverlap: 20 }, { chunkSize: 40, chunkOverlap: 0 }]) {
      const chunks = chunkSections([{ text, metadata: {} }], options)
      expect(chunks.length).toBeGreaterThan(1)
      for (const chunk of chunks) {
        expect(countTokens(chunk.text)).toBeLessThanOrEqual(options.chunkSize)
        expect(chunk.tokens).toBe(countTokens(chunk.text))
      }
    }
  })

  test('sentences are kept whole: each chunk is made of whole sentences of the text', () => {
    const all = paragraphs(30, 6)
    const sentences = new Set(all.flatMap(p => p.split(/(?<=[.!?]) /)))
    const chunks = chunkSections([{ text: all.join('\n\n'), metadata: {} }], { chunkSize: 90, chunkOverlap: 30 })
    for (const chunk of chunks) {
      for (const piece of chunk.text.split(/(?<=[.!?])\s+/)) expect(sentences.has(piece), piece).toBe(true)
    }
    const joined = chunks.map(c => c.text).join('\n')
    for (const s of sentences) expect(joined).toContain(s)
  })

  test('a paragraph that fits in a chunk is never split between chunks', () => {
    const all = paragraphs(40, 3)
    const chunks = chunkSections([{ text: all.join('\n\n'), metadata: {} }], { chunkSize: 120, chunkOverlap: 0 })
    for (const p of all) expect(chunks.some(c => c.text.includes(p)), p).toBe(true)
    // paragraph boundaries survive inside chunks
    expect(chunks.some(c => c.text.includes('\n\n'))).toBe(true)
  })

  test('each chunk starts with the last whole sentences of the one before, within the overlap', () => {
    const text = paragraphs(1, 80)[0]
    const chunks = chunkSections([{ text, metadata: {} }], { chunkSize: 100, chunkOverlap: 40 })
    expect(chunks.length).toBeGreaterThan(3)
    for (let i = 1; i < chunks.length; i++) {
      const previous = chunks[i - 1].text.split(/(?<=[.!?])\s+/)
      const current = chunks[i].text.split(/(?<=[.!?])\s+/)
      let shared = 0
      while (shared < previous.length && previous[previous.length - 1 - shared] !== undefined && current.includes(previous[previous.length - 1 - shared])) shared++
      expect(shared, `chunk ${i}`).toBeGreaterThan(0)
      const overlap = current.slice(0, shared).join(' ')
      expect(previous.slice(-shared).join(' ')).toBe(overlap)
      expect(countTokens(overlap)).toBeLessThanOrEqual(40)
    }
  })

  test('without overlap, no sentence appears in two chunks', () => {
    const text = paragraphs(1, 60)[0]
    const chunks = chunkSections([{ text, metadata: {} }], { chunkSize: 80, chunkOverlap: 0 })
    const pieces = chunks.flatMap(c => c.text.split(/(?<=[.!?])\s+/))
    expect(new Set(pieces).size).toBe(pieces.length)
    expect(pieces.join(' ')).toBe(text)
  })

  test('a sentence longer than a chunk is cut between words and nothing is lost', () => {
    const words = Array.from({ length: 400 }, (_, i) => `word${i}`)
    const chunks = chunkSections([{ text: `${words.join(' ')}.`, metadata: {} }], { chunkSize: 64, chunkOverlap: 0 })
    expect(chunks.length).toBeGreaterThan(5)
    for (const chunk of chunks) expect(countTokens(chunk.text)).toBeLessThanOrEqual(64)
    expect(chunks.map(c => c.text).join(' ')).toBe(`${words.join(' ')}.`)
  })

  test('a "word" longer than a chunk is cut without breaking a character', () => {
    const word = '漢字🙂'.repeat(400)
    const chunks = chunkSections([{ text: word, metadata: {} }], { chunkSize: 50, chunkOverlap: 10 })
    for (const chunk of chunks) {
      expect(countTokens(chunk.text)).toBeLessThanOrEqual(50)
      expect(chunk.text).not.toContain('\uFFFD')
    }
    expect(chunks.map(c => c.text).join('')).toBe(word)
  })

  test('never emits an empty chunk', () => {
    const chunks = chunkSections(
      [
        { text: '   \n\n \t \n', metadata: { page: 1 } },
        { text: '', metadata: { page: 2 } },
        { text: 'Only this.\n\n\n\n   \n\nAnd this.', metadata: { page: 3 } },
      ],
      { chunkSize: 512, chunkOverlap: 64 },
    )
    expect(chunks).toHaveLength(1)
    expect(chunks[0]).toMatchObject({ text: 'Only this.\n\nAnd this.', metadata: { page: 3 } })
  })

  test('whitespace inside a line becomes one space whatever its kind and length; a lone space stays', () => {
    const text = 'a \t b\u00a0\u00a0c \u2003 d  e f\tg\r\nh \r\n\r\n  next\u00a0paragraph '
    expect(chunkSections([{ text, metadata: {} }], { chunkSize: 100, chunkOverlap: 0 }).map(c => c.text)).toEqual(['a b c d e f g\nh\n\nnext paragraph'])
  })

  test("chunks never span sections, and each carries its section's metadata", () => {
    const chunks = chunkSections(
      [
        { text: paragraphs(3, 5).join('\n\n'), metadata: { page: 1 } },
        { text: 'Short second page.', metadata: { page: 2 } },
      ],
      { chunkSize: 60, chunkOverlap: 10 },
    )
    expect(chunks.at(-1)).toMatchObject({ text: 'Short second page.', metadata: { page: 2 } })
    expect(chunks.slice(0, -1).every(c => c.metadata.page === 1 && !c.text.includes('Short second page'))).toBe(true)
  })

  test("a datastore's settings are made safe: overlap below half a chunk, sizes within bounds", () => {
    expect(chunkingFor({ chunkSize: 512, chunkOverlap: 64 })).toEqual({ chunkSize: 512, chunkOverlap: 64 })
    expect(chunkingFor({ chunkSize: 100, chunkOverlap: 500 })).toEqual({ chunkSize: 100, chunkOverlap: 50 })
    expect(chunkingFor({ chunkSize: 1, chunkOverlap: -3 })).toEqual({ chunkSize: 32, chunkOverlap: 0 })
    expect(chunkingFor({ chunkSize: 1_000_000, chunkOverlap: 64 })).toEqual({ chunkSize: 8192, chunkOverlap: 64 })
  })
})

describe('countTokens', () => {
  test('counts exactly the tokens encodeTokens gives, for any text (its per-word memory changes nothing)', () => {
    const samples = [
      sentence(1) + '\n\n' + sentence(2),
      "don't I'LL we've 1234567 3.14 <|endoftext|> tail",
      'Héllo wörld — ünïcode 😀😀 naïve café',
      '  leading and trailing  \n\n\n  ',
      ' \u00a0'.repeat(40) + 'x',
      'a'.repeat(200) + ' ' + '='.repeat(100) + 'x  \n\n\n  y',
      'é'.repeat(70) + ' ' + '😀'.repeat(40) + ' ' + '\t'.repeat(100),
      'x'.repeat(63) + ' y ' + '-'.repeat(64),
    ]
    for (const text of samples) {
      for (let i = 0; i < text.length; i += 7) {
        const part = text.slice(i)
        expect(countTokens(part)).toBe(encodeTokens(part).length)
        expect(countTokens(part)).toBe(countTokens(part))
      }
    }
  })

  test("its own byte-pair merge counts as js-tiktoken's encoder does, in any script and for words never seen", () => {
    const samples = [
      '机器学习是人工智能的一个分支。東京都の人口は約千四百万人です。한국어 문장도 셉니다.',
      'Съешь же ещё этих мягких французских булок, да выпей чаю. Ελληνικά γράμματα. العربية لغة سامية. हिन्दी भाषा',
      'function f(x) { return x ** 2 + 0x1f; } // IL-6, Arp2/3, CK-666, p<0.001, 12,345.678 mg/kg, α-synuclein β2',
      'Supercalifragilisticexpialidocious antidisestablishmentarianism pneumonoultramicroscopicsilicovolcanoconiosis',
    ]
    // words of random letters from several scripts: pieces no cache has seen, each merged from its bytes
    let seed = 7
    const next = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31
    const ranges = [[0x61, 0x7a], [0x41, 0x5a], [0xe0, 0xff], [0x430, 0x44f], [0x3b1, 0x3c9], [0x4e00, 0x4fff], [0x30, 0x39], [0x21, 0x2f]]
    const word = () => {
      const [from, to] = ranges[Math.floor(next() * ranges.length)]
      return Array.from({ length: 1 + Math.floor(next() * 12) }, () => String.fromCodePoint(from + Math.floor(next() * (to - from + 1)))).join('')
    }
    samples.push(Array.from({ length: 400 }, word).join(' '))
    for (const text of samples) {
      for (let i = 0; i < text.length; i += 11) expect(countTokens(text.slice(i))).toBe(encodeTokens(text.slice(i)).length)
    }
  })
})

describe("the worker's chunking", () => {
  test('gives the same chunks as chunkSections and lets timers run while a 1,500-page file is chunked', async () => {
    const sections = Array.from({ length: 1_500 }, (_, i) => ({ text: `Page ${i + 1}. ${'The kettle needs descaling once a month with citric acid. '.repeat(30)}`, metadata: { page: i + 1 } }))
    const options = chunkingFor({})
    let ticks = 0
    const timer = setInterval(() => ticks++, 1)
    const chunks = await chunkSectionsYielding(sections, options)
    clearInterval(timer)
    expect(chunks).toEqual(chunkSections(sections, options))
    expect(ticks, 'timers that ran during the chunking').toBeGreaterThan(0)
  })
})

describe('a long paragraph (a text file of several MB without a blank line)', () => {
  /** Numbered sentences, one a line: a single paragraph of about `bytes`. */
  const lines = (bytes: number) => {
    const out: string[] = []
    for (let i = 0, size = 0; size < bytes; i++) size += out[out.push(`${sentence(i)} Line ${i}, see e.g. item no. ${i % 97}.`) - 1].length + 1
    return out.join('\n')
  }

  test("is cut into Intl.Segmenter's sentences of the whole text, the segmenter never given more than a window of it", () => {
    const text = lines(300_000)
    const whole = [...new Intl.Segmenter('en', { granularity: 'sentence' }).segment(text)].map(s => s.segment)
    const segment = vi.spyOn(Intl.Segmenter.prototype, 'segment')
    try {
      expect([...sentencesOf(text)]).toEqual(whole)
      const chunks = chunkSections([{ text, metadata: {} }], chunkingFor({}))
      expect(chunks.length).toBeGreaterThan(100)
      // V8 segments in time proportional to the whole string for each sentence: handed 7 MB, ten minutes
      expect(Math.max(...segment.mock.calls.map(([input]) => input.length))).toBeLessThanOrEqual(4096)
    } finally {
      segment.mockRestore()
    }
  })

  test('a "sentence" of 300 KB without punctuation (a log, a blob) is cut at 64 KB, after a space, and nothing is lost', () => {
    const text = Array.from({ length: 30_000 }, (_, i) => `entry${i} ok`).join(' ')
    const segment = vi.spyOn(Intl.Segmenter.prototype, 'segment')
    try {
      const cut = [...sentencesOf(text)]
      expect(cut.join('')).toBe(text)
      expect(cut.length).toBeGreaterThan(4)
      for (const piece of cut.slice(0, -1)) expect(piece.length <= 65_536 && piece.endsWith(' '), piece.slice(-20)).toBe(true)
      expect(Math.max(...segment.mock.calls.map(([input]) => input.length))).toBeLessThanOrEqual(65_536)
    } finally {
      segment.mockRestore()
    }
  })

  test("the worker's chunking lets timers run while one section of 1 MB is chunked, with the same chunks", async () => {
    const sections = [{ text: lines(1_000_000), metadata: { page: 1 } }]
    const options = chunkingFor({})
    let ticks = 0
    const timer = setInterval(() => ticks++, 1)
    const chunks = await chunkSectionsYielding(sections, options)
    clearInterval(timer)
    expect(ticks, 'timers that ran during the chunking').toBeGreaterThan(0)
    expect(chunks).toEqual(chunkSections(sections, options))
  })
})
