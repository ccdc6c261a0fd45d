// A Notion workspace of a support team, on the fake Notion: a help-center page with two child pages and an FAQ
// database of three rows (more than one page of a query).
// (No import of the service: the e2e tests build it too.)
import type { FakeBlock, FakeNotion } from './fake-notion'
import { property, richText } from './notion-shapes'

export const text = (type: string, content: string, extra: Record<string, unknown> = {}): FakeBlock => ({ type, body: { rich_text: richText(content), color: 'default', ...extra } })

export function buildWorkspace(notion: FakeNotion) {
  const root = notion.addPage({ title: 'Help center', parent: {}, blocks: [text('heading_1', 'Kettles'), text('paragraph', 'Our kettles boil a litre in three minutes.')] })
  const warranty = notion.addPage({
    title: 'Warranty',
    parent: { page: root },
    blocks: [
      text('heading_2', 'Cover'),
      text('paragraph', 'The kettle warranty lasts two years.'),
      text('bulleted_list_item', 'Limescale damage is not covered'),
      text('numbered_list_item', 'Keep the receipt'),
      text('to_do', 'Register the kettle online', { checked: false }),
      text('quote', 'Best warranty in the trade'),
      text('code', 'curl https://example.com/claims', { language: 'bash', caption: [] }),
      {
        type: 'table',
        body: { table_width: 2, has_column_header: true, has_row_header: false },
        children: [
          { type: 'table_row', body: { cells: [richText('Model'), richText('Years')] } },
          { type: 'table_row', body: { cells: [richText('K200'), richText('2')] } },
        ],
      },
    ],
  })
  const descaling = notion.addPage({ title: 'Descaling', parent: { page: root }, blocks: [text('paragraph', 'Descale the kettle with white vinegar every month.')] })
  const faq = notion.addDatabase({ title: 'FAQ', parentPage: root })
  const row = (title: string, category: string, answer: string) =>
    notion.addPage({ title, parent: { database: faq }, properties: { Category: property.select(category) }, blocks: [text('paragraph', answer)] })
  const rows = [
    row('How fast is shipping?', 'Shipping', 'Orders ship within three days.'),
    row('Can I return a kettle?', 'Returns', 'Returns are accepted within thirty days.'),
    row('Is the lid dishwasher safe?', 'Care', 'The lid is dishwasher safe; the base is not.'),
  ]
  return { root, warranty, descaling, faq, rows }
}
