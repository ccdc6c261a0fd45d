// The sentences the chunker keeps whole (lib/ingest/chunker.ts), by Intl.Segmenter.

const sentences = new Intl.Segmenter('en', { granularity: 'sentence' })

// V8's sentence segmenter costs time in proportion to the whole string for every sentence it returns: quadratic on a
// long paragraph (a text file without blank lines: 7 MB took ten minutes, holding the event loop the web server
// shares). It is given windows of SEGMENT_WINDOW characters instead, and only the sentences that end well before a
// window's end are taken (the breaks it finds there do not depend on the text the window cut off), the next window
// starting at the first sentence not taken; a window holding no such sentence grows until it does.
const SEGMENT_WINDOW = 4096
const SEGMENT_MARGIN = 512

/** The sentences of `text`, as Intl.Segmenter finds them in it whole, with their spaces: they join back into `text`. */
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
    if (taken === 0) size *= 2
    else [start, size] = [start + taken, SEGMENT_WINDOW]
  }
}
