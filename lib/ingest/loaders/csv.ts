import Papa from 'papaparse'
import type { Section } from '../sections'
import { decodeText } from './decode'
import { recordsText } from './records'

/** CSV (papaparse, delimiter detected): the first row is the header; rows as "Header: value" records. */
export async function loadCsv(data: Uint8Array, charset?: string | null): Promise<Section[]> {
  const parsed = Papa.parse<string[]>(decodeText(data, charset), { skipEmptyLines: 'greedy' })
  return [{ text: await recordsText(parsed.data.map(row => row.map(String))), metadata: {} }]
}
