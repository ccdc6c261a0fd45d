/** A run of extracted text with what locates it in the original (page, slide, sheet, title…); chunks inherit it. */
export interface Section {
  text: string
  metadata: Record<string, unknown>
}

/** A chunk before it is stored: its text, its token count (cl100k_base) and its section's metadata. */
export interface ChunkDraft {
  text: string
  tokens: number
  metadata: Record<string, unknown>
}

export function textSizeOf(sections: Section[]): number {
  return sections.reduce((n, s) => n + s.text.length, 0)
}

export function hasText(sections: Section[]): boolean {
  return sections.some(s => s.text.trim().length > 0)
}
