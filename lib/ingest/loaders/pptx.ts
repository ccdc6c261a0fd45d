import type JSZip from 'jszip'
import { permanentError } from '../errors'
import type { Section } from '../sections'
import { decodeXmlEntities } from './xml-text'
import { openCheckedZip } from './zip-guard'

/** PPTX (the slides' DrawingML read with jszip): one section per slide, in presentation order, with its number. */
export async function loadPptx(data: Uint8Array): Promise<Section[]> {
  const zip = await openCheckedZip(data, 'PPTX')
  const paths = await slidePaths(zip)
  if (paths.length === 0) throw permanentError('The PPTX file could not be read: it has no slides')
  const sections: Section[] = []
  for (const [i, path] of paths.entries()) {
    const xml = await zip.file(path)!.async('string')
    sections.push({ text: slideText(xml), metadata: { slide: i + 1 } })
  }
  return sections
}

/** Slide parts in the order of presentation.xml's slide list, else by their number. */
async function slidePaths(zip: JSZip): Promise<string[]> {
  const byNumber = Object.keys(zip.files)
    .filter(p => /^ppt\/slides\/slide\d+\.xml$/.test(p))
    .sort((a, b) => Number(/(\d+)\.xml$/.exec(a)![1]) - Number(/(\d+)\.xml$/.exec(b)![1]))
  const presentation = await zip.file('ppt/presentation.xml')?.async('string')
  const rels = await zip.file('ppt/_rels/presentation.xml.rels')?.async('string')
  if (!presentation || !rels) return byNumber
  const targets = new Map<string, string>()
  for (const [, attrs] of rels.matchAll(/<Relationship\b([^>]*)\/?>/g)) {
    const id = /\bId="([^"]+)"/.exec(attrs)?.[1]
    const target = /\bTarget="([^"]+)"/.exec(attrs)?.[1]
    if (id && target) targets.set(id, target)
  }
  const ordered: string[] = []
  for (const [, attrs] of presentation.matchAll(/<p:sldId\b([^>]*)\/?>/g)) {
    const target = targets.get(/\br:id="([^"]+)"/.exec(attrs)?.[1] ?? '')
    if (!target) continue
    const path = target.startsWith('/') ? target.slice(1) : `ppt/${target.replace(/^\.\//, '')}`
    if (zip.file(path) && !ordered.includes(path)) ordered.push(path)
  }
  return ordered.length > 0 ? ordered : byNumber
}

/**
 * Each "<a:p>…</a:p>" (or "<a:p …>…</a:p>") of a slide, to the first "</a:p>". A scan, not /<a:p>[\s\S]*?<\/a:p>/g:
 * that one tries again from every "<a:p>" left unclosed, each attempt reading to the end (quadratic: 40,000 of them
 * took 4 s).
 */
export function* drawingParagraphs(xml: string): Generator<string> {
  for (let from = 0; ; ) {
    const open = xml.indexOf('<a:p', from)
    if (open === -1) return
    if (xml[open + 4] !== '>' && !/\s/.test(xml[open + 4] ?? '')) {
      from = open + 4
      continue
    }
    const close = xml.indexOf('</a:p>', open + 5)
    if (close === -1) return
    yield xml.slice(open, close + 6)
    from = close + 6
  }
}

/** The text of a slide: one line per DrawingML paragraph (<a:p>), line breaks (<a:br/>) kept. */
function slideText(xml: string): string {
  const lines: string[] = []
  for (const paragraph of drawingParagraphs(xml)) {
    const parts: string[] = []
    for (const [, br, run] of paragraph.matchAll(/(<a:br\b[^>]*\/>)|<a:t(?:\s[^>]*)?>([^<]*)<\/a:t>/g)) {
      parts.push(br ? '\n' : decodeXmlEntities(run))
    }
    const line = parts.join('').trim()
    if (line) lines.push(line)
  }
  return lines.join('\n')
}
