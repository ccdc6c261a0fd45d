// Data a real support team would have (issue 15): long file names, long URLs with query strings, a multi-page PDF,
// a file that fails, an agent with a long name. Made through the API with the initial key; the names carry no
// test artefacts, so screenshots show what a user would see.
import fs from 'node:fs'
import type { APIRequestContext } from '@playwright/test'
import { expect } from '@playwright/test'
import { PDFDocument, StandardFonts } from 'pdf-lib'
import { auth, createAgent, createDatastore, fakeModel, makeFile, upsertText } from './dashboard'

export const LONG_URL =
  'https://support.aurora-appliances.example/en-gb/knowledge-base/kettles/aurora-ak-2000-series/limescale-and-descaling-instructions-for-hard-water-regions?utm_source=newsletter&utm_medium=email&utm_campaign=winter-2025-care-guide'

export const MANUAL_NAME = 'Aurora_Kettle_AK-2000_Series_User_Manual_and_Safety_Instructions_EN-DE-FR_rev7_final(2).pdf'

const TOPICS = [
  ['Warranty terms and conditions for kettles, toasters and coffee machines bought in the United Kingdom and Ireland', 'The Aurora kettle has a two-year warranty covering parts and labour. Keep your receipt.'],
  ['Descaling your Aurora kettle in hard-water areas: vinegar, citric acid and the descaling tablets we sell', 'Descale the Aurora kettle every four weeks with white vinegar diluted in water.'],
  ['Shipping, delivery times and costs for orders to the EU, Switzerland, Norway and the United Kingdom after Brexit', 'Orders ship within two working days. Delivery is free above 50 euros.'],
  ['Returns and refunds: how to send back a product within 30 days, and who pays for the return label', 'Returns are free within thirty days of delivery with the prepaid label.'],
  ['Borealis toaster — the crumb tray, the bagel setting and what the flashing orange light means', 'The crumb tray slides out from the back; empty it once a week.'],
  ['Contacting customer support by phone, chat and e-mail; opening hours on public holidays in each country', 'Support answers by chat from 8 am to 8 pm, Monday to Saturday.'],
]

/** A two-page PDF: each page's text is found in its chunk with its page number. */
export async function makeManualPdf(): Promise<Buffer> {
  const pdf = await PDFDocument.create()
  const font = await pdf.embedFont(StandardFonts.Helvetica)
  const pages = [
    ['Aurora kettle AK-2000: user manual', 'Unpack the kettle and rinse it twice before the first use.', 'Never fill it above the MAX mark of 1.7 litres.'],
    ['Care and descaling', 'Descale the kettle every four weeks in hard-water areas.', 'Use white vinegar diluted one to one in water, then rinse.'],
  ]
  for (const lines of pages) {
    const page = pdf.addPage([595, 842])
    lines.forEach((line, i) => page.drawText(line, { x: 50, y: 780 - i * 20, size: 12, font }))
  }
  return Buffer.from(await pdf.save())
}

export async function uploadBuffer(request: APIRequestContext, datastoreId: string, name: string, mimeType: string, buffer: Buffer) {
  const res = await request.post('/api/datasources', { headers: auth, multipart: { type: 'file', datastoreId, file: { name, mimeType, buffer } } })
  expect([200, 201], await res.text()).toContain(res.status())
  return (await res.json()) as { id: string; name: string; duplicate?: boolean }
}

export interface SupportData {
  datastoreId: string
  datastoreName: string
  manualId: string
  agentId: string
  agentName: string
  conversationId: string
}

/**
 * A datastore of `count` datasources (at least 10) with long names and URLs: upserted articles with long titles and
 * sources, a two-page PDF manual, a CSV price list, a file that fails, and an agent reading it with one conversation.
 */
export async function makeSupportData(request: APIRequestContext, { count = 30, datastoreName = 'Aurora appliances — customer support knowledge base (EU, UK and Switzerland editions)' } = {}): Promise<SupportData> {
  const store = await createDatastore(request, datastoreName)
  const manual = await uploadBuffer(request, store.id, MANUAL_NAME, 'application/pdf', await makeManualPdf())
  const csv = makeFile('price-list.csv', 'product,price\nAurora kettle AK-2000,79\nBorealis toaster BT-4,59\n')
  await uploadBuffer(request, store.id, 'Aurora_and_Borealis_retail_price_list_2025_Q4_incl_VAT_all_EU_markets.csv', 'text/csv', fs.readFileSync(csv))
  await uploadBuffer(request, store.id, 'Scanned_service_report_from_the_Lyon_repair_centre_2024-11-03.pdf', 'application/pdf', Buffer.from('%PDF-1.7 damaged scan'))
  const articles = Array.from({ length: count - 3 }, (_, i) => {
    const [title, text] = TOPICS[i % TOPICS.length]
    const edition = Math.floor(i / TOPICS.length) + 1
    return {
      name: edition === 1 ? title : `${title} (edition ${edition})`,
      text: `${text} This is edition ${edition} of the article, reviewed by the support team in week ${10 + i}.`,
      metadata: { source: `${LONG_URL}&article=${i + 1}` },
    }
  })
  await upsertText(request, store.id, articles)
  await expect
    .poll(
      async () => {
        const page = await (await request.get(`/api/datastores/${store.id}/datasources?limit=200`, { headers: auth })).json()
        return (page.items as { status: string }[]).filter(d => d.status === 'synched' || d.status === 'error').length
      },
      { timeout: 90_000, intervals: [250, 500, 1000] },
    )
    .toBe(count)
  const agentName = 'Aurora kettle and Borealis toaster customer support assistant (English, weekdays)'
  const agent = await createAgent(request, {
    name: agentName,
    description: 'Answers customers about warranty, descaling, delivery and returns of Aurora and Borealis appliances',
    visibility: 'public',
    modelName: 'model_3_5_turbo',
    temperature: 0.2,
    datastoreIds: [store.id],
  })
  await fakeModel(request, { reply: 'The Aurora kettle has a **two-year warranty** covering parts and labour.\n\nKeep your receipt: you will need it for a claim.', delayMs: 1 })
  const res = await request.post(`/api/agents/${agent.id}/query`, { headers: auth, data: { query: 'How long is the kettle warranty, and do I need my receipt?' } })
  expect(res.status()).toBe(200)
  return { datastoreId: store.id, datastoreName, manualId: manual.id, agentId: agent.id, agentName, conversationId: (await res.json()).conversationId }
}

/** The dashboard's main pages for this data; pages other helpers add are listed when the server serves them. */
export function mainPages(d: SupportData): [string, string][] {
  return [
    ['agents', '/agents'],
    ['agent', `/agents/${d.agentId}`],
    ['new agent', '/agents/new'],
    ['conversations', `/agents/${d.agentId}/conversations?c=${d.conversationId}`],
    ['datastores', '/datastores'],
    ['datastore', `/datastores/${d.datastoreId}`],
    ['datasource', `/datastores/${d.datastoreId}/datasources/${d.manualId}`],
    ['playground', `/playground?agent=${d.agentId}`],
    ['api-keys', '/api-keys'],
    ['webhooks', '/webhooks'],
    ['connections', '/connections'],
    ['usage', '/usage'],
    ['inbox', '/conversations'],
    ['gaps', '/gaps'],
    ['connect an assistant', '/connect'],
    ['members', '/members'],
    ['account', '/account'],
    ['models', '/models'],
    ['system', '/system'],
  ]
}
