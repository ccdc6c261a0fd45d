// The sentences the chunker keeps whole (lib/ingest/chunker.ts), by Intl.Segmenter.

const sentences = new Intl.Segmenter('en', { granularity: 'sentence' })

// V8's sentence segmenter costs time in proportion to the whole string for every sentence it returns: quadratic on a
// long paragraph (a text file without blank lines: 7 MB took ten minutes, holding the event loop the web server
// shares). It is given windows of SEGMENT_WINDOW characters instead, and only the sentences that end well before a
// window's end are taken (the breaks it finds there do not depend on the text the window cut off), the next window
// starting at the first sentence not taken; a window holding no such sentence grows until it does, up to
// LONGEST_SENTENCE: a "sentence" longer than that (a log without punctuation, a blob) is cut there, at its last space
// when it has one (the chunker cuts anything that long into pieces anyway).
const SEGMENT_WINDOW = 4096
const SEGMENT_MARGIN = 512
const LONGEST_SENTENCE = 65_536

/** Where a sentence of more than `size` characters from `start` is cut: after its last space, else never inside a code point. */
function cutAt(text: string, start: number, size: number): number {
  const space = text.slice(start, start + size).search(/\s\S*$/)
  if (space > 0) return space + 1
  const last = text.charCodeAt(start + size - 1)
  return last >= 0xd800 && last <= 0xdbff ? size - 1 : size
}

/**
 * The sentences of `text`, as Intl.Segmenter finds them in it whole (but for sentences longer than LONGEST_SENTENCE),
 * with their spaces: they join back into `text`.
 */
export function* sentencesOf(text: string): Generator<string> {
  let start = 0
  let size = SEGMENT_WINDOW
  while (start < text.length) {
    if (text.length - start <= size) {
      for (const { segment } of sentences.segment(text.slice(start))) yield segment
      return
    }
    let taken = 0
    for (const { segment, index } of sentences.segment(text.slice(start, start + size))) {
      if (index + segment.length > size - SEGMENT_MARGIN) break
      yield segment
      taken = index + segment.length
    }
    if (taken === 0 && size < LONGEST_SENTENCE) {
      size *= 2
      continue
    }
    if (taken === 0) {
      taken = cutAt(text, start, size)
      yield text.slice(start, start + taken)
    }
    ;[start, size] = [start + taken, SEGMENT_WINDOW]
  }
}
