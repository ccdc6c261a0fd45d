import ExcelJS from 'exceljs'
import { messageOf, permanentError } from '../errors'
import type { Section } from '../sections'
import { recordsText } from './records'
import { openCheckedZip } from './zip-guard'

/** XLSX (exceljs): one section per worksheet, with its name; rows as "Header: value" records. */
export async function loadXlsx(data: Uint8Array): Promise<Section[]> {
  await openCheckedZip(data, 'XLSX')
  const workbook = new ExcelJS.Workbook()
  try {
    await workbook.xlsx.load(Buffer.from(data) as unknown as ArrayBuffer)
  } catch (error) {
    throw permanentError(`The XLSX file could not be read: ${messageOf(error)}`, error)
  }
  const sections: Section[] = []
  workbook.eachSheet(sheet => {
    const rows: string[][] = []
    sheet.eachRow({ includeEmpty: false }, row => {
      const cells: string[] = []
      for (let c = 1; c <= row.cellCount; c++) cells.push(cellText(row.getCell(c)))
      rows.push(cells)
    })
    const text = recordsText(rows)
    if (text) sections.push({ text, metadata: { sheet: sheet.name } })
  })
  return sections
}

/** What the cell shows: formula results, rich text and hyperlinks as their text; dates as ISO 8601. */
function cellText(cell: ExcelJS.Cell): string {
  const value = cell.value
  if (value instanceof Date) return isoDate(value)
  if (value && typeof value === 'object' && 'result' in value && value.result instanceof Date) return isoDate(value.result)
  try {
    return cell.text ?? ''
  } catch {
    return String(value ?? '')
  }
}

function isoDate(date: Date): string {
  if (Number.isNaN(date.getTime())) return ''
  const iso = date.toISOString()
  return iso.endsWith('T00:00:00.000Z') ? iso.slice(0, 10) : iso.replace('.000Z', 'Z')
}
