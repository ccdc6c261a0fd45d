import ExcelJS from 'exceljs'
import { logger } from '@/lib/logger'
import { messageOf, permanentError } from '../errors'
import type { Section } from '../sections'
import { readXlsxSheets, ThreadsUnavailable, type Sheet, type XlsxSheets } from './reading-threads'
import { recordsText } from './records'
import { openCheckedZip } from './zip-guard'

/** XLSX (exceljs, in a worker thread: reading-threads.ts): one section per worksheet, with its name; rows as "Header: value" records. */
export async function loadXlsx(data: Uint8Array): Promise<Section[]> {
  await openCheckedZip(data, 'XLSX')
  const read = await readSheets(data)
  if (read.kind === 'unreadable') throw permanentError(`The XLSX file could not be read: ${read.message}`)
  const sections: Section[] = []
  for (const sheet of read.sheets) {
    const text = await recordsText(sheet.rows.map(row => row.map(cell => (cell instanceof Date ? isoDate(cell) : cell))))
    if (text) sections.push({ text, metadata: { sheet: sheet.name } })
  }
  return sections
}

let threadsUnavailable = false

async function readSheets(data: Uint8Array): Promise<XlsxSheets> {
  if (!threadsUnavailable) {
    try {
      return await readXlsxSheets(data)
    } catch (error) {
      if (!(error instanceof ThreadsUnavailable)) throw error
      threadsUnavailable = true
      logger.warn('XLSX files are read in-process: the reading thread could not load exceljs', { reason: error.message })
    }
  }
  return readSheetsHere(data)
}

/** The same reading on this thread, where worker threads cannot load exceljs (another working directory). */
async function readSheetsHere(data: Uint8Array): Promise<XlsxSheets> {
  const workbook = new ExcelJS.Workbook()
  try {
    await workbook.xlsx.load(Buffer.from(data) as unknown as ArrayBuffer)
  } catch (error) {
    return { kind: 'unreadable', name: (error as Error)?.name ?? 'Error', message: messageOf(error) }
  }
  const sheets: Sheet[] = []
  workbook.eachSheet(sheet => {
    const rows: Sheet['rows'] = []
    sheet.eachRow({ includeEmpty: false }, row => {
      const cells: Sheet['rows'][number] = []
      for (let c = 1; c <= row.cellCount; c++) cells.push(cellShown(row.getCell(c)))
      rows.push(cells)
    })
    sheets.push({ name: sheet.name, rows })
  })
  return { kind: 'sheets', sheets }
}

/** What the cell shows: formula results, rich text and hyperlinks as their text; a date as itself (its twin: reading-threads.ts). */
function cellShown(cell: ExcelJS.Cell): string | Date {
  const value = cell.value
  if (value instanceof Date) return value
  if (value && typeof value === 'object' && 'result' in value && value.result instanceof Date) return value.result
  try {
    return cell.text ?? ''
  } catch {
    return String(value ?? '')
  }
}

/** A date as ISO 8601: the day alone at midnight UTC. */
function isoDate(date: Date): string {
  if (Number.isNaN(date.getTime())) return ''
  const iso = date.toISOString()
  return iso.endsWith('T00:00:00.000Z') ? iso.slice(0, 10) : iso.replace('.000Z', 'Z')
}
