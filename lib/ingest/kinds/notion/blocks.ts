import type { Section } from '../../sections'
import { plainText, propertyText, type NotionBlock, type NotionPage } from './objects'

// A page's blocks as text sections: each heading starts a section (its metadata names it), lists are "- " and
// "1. " lines, to-dos "[ ]"/"[x]", quotes ">", code fenced, a table's rows joined with " | ". A database row's
// properties come first, one "Property: value" line each.

/** A block with its children already read (those it has, within the bounds). */
export interface BlockNode {
  block: NotionBlock
  children: BlockNode[]
}

const HEADINGS = ['heading_1', 'heading_2', 'heading_3']

function textOf(block: NotionBlock): string {
  const body = block[block.type] as { rich_text?: unknown; checked?: boolean; language?: string; cells?: unknown[]; title?: string } | undefined
  const text = plainText(body?.rich_text)
  switch (block.type) {
    case 'bulleted_list_item':
      return `- ${text}`
    case 'numbered_list_item':
      return `1. ${text}`
    case 'to_do':
      return `${body?.checked ? '[x]' : '[ ]'} ${text}`
    case 'quote':
      return `> ${text}`
    case 'code':
      return `\`\`\`${body?.language && body.language !== 'plain text' ? body.language : ''}\n${text}\n\`\`\``
    case 'table_row':
      return (body?.cells ?? []).map(cell => plainText(cell)).join(' | ')
    case 'child_page':
    case 'child_database':
      // its own datasource holds its content; its title says it is there
      return body?.title ?? ''
    case 'equation':
      return String((block.equation as { expression?: string })?.expression ?? '')
    default:
      return text
  }
}

/** The lines of a block and of its children, children indented under list items. */
function linesOf(node: BlockNode, depth: number): string[] {
  const own = textOf(node.block)
  const indent = '  '.repeat(depth)
  const nested = ['bulleted_list_item', 'numbered_list_item', 'to_do'].includes(node.block.type)
  const lines = own.trim() ? [indent + own] : []
  return [...lines, ...node.children.flatMap(child => linesOf(child, nested ? depth + 1 : depth))]
}

/** The sections of a page: its properties (a database row), then its blocks, split at headings. */
export function pageSections(page: NotionPage, blocks: BlockNode[]): Section[] {
  const sections: Section[] = []
  const properties = Object.entries(page.properties ?? {})
    .filter(([, p]) => p.type !== 'title')
    .map(([name, p]) => [name, propertyText(p).trim()] as const)
    .filter(([, text]) => text)
  if (properties.length > 0) sections.push({ text: properties.map(([name, text]) => `${name}: ${text}`).join('\n'), metadata: { part: 'properties' } })
  let heading: string | null = null
  let lines: string[] = []
  const flush = () => {
    if (lines.join('').trim()) sections.push({ text: lines.join('\n'), metadata: heading ? { heading } : {} })
    lines = []
  }
  for (const node of blocks) {
    if (HEADINGS.includes(node.block.type)) {
      flush()
      heading = textOf(node.block).trim() || null
      if (heading) lines.push(heading)
      lines.push(...node.children.flatMap(child => linesOf(child, 0)))
      continue
    }
    lines.push(...linesOf(node, 0))
  }
  flush()
  return sections
}
