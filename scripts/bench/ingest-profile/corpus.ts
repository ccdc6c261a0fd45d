// The corpus: BEIR SciFact's corpus.jsonl, one document a line.
import fs from 'node:fs'

export interface Doc { _id: string; title: string; text: string }

export function readCorpus(file: string, n: number): Doc[] {
  if (!fs.existsSync(file)) throw new Error(`corpus not found: ${file} (--corpus or BENCH_CORPUS)`)
  const docs: Doc[] = []
  for (const line of fs.readFileSync(file, 'utf8').split('\n')) {
    if (docs.length >= n) break
    if (!line.trim()) continue
    const d = JSON.parse(line) as Doc
    if ((d.title + d.text).trim()) docs.push(d)
  }
  if (docs.length < n) throw new Error(`the corpus has ${docs.length} documents, fewer than --docs ${n}`)
  return docs
}
