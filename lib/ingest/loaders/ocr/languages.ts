import fs from 'node:fs'
import path from 'node:path'
import { DEFAULT_SEARCH_LANGUAGE, type SearchLanguage } from '@/lib/domain/languages'

// Tesseract's code of each datastore language. Its trained data comes from the npm package @tesseract.js-data/<code>:
// a language is recognised when that package is installed (README "Text in images and scans" lists those that are,
// and how to add one); English always is.
const TESSERACT_CODES: Record<SearchLanguage, string | null> = {
  english: 'eng', simple: null, arabic: 'ara', armenian: 'hye', basque: 'eus', catalan: 'cat', danish: 'dan',
  dutch: 'nld', finnish: 'fin', french: 'fra', german: 'deu', greek: 'ell', hindi: 'hin', hungarian: 'hun',
  indonesian: 'ind', irish: 'gle', italian: 'ita', lithuanian: 'lit', nepali: 'nep', norwegian: 'nor',
  portuguese: 'por', romanian: 'ron', russian: 'rus', serbian: 'srp', spanish: 'spa', swedish: 'swe', tamil: 'tam',
  turkish: 'tur', yiddish: 'yid',
}

export const ENGLISH = 'eng'

// The LSTM models ("best, integer") that tesseract.js loads by default, gzipped, inside each data package
const MODEL_FOLDER = '4.0.0_best_int'

const folders = new Map<string, string | null>()

/**
 * The folder holding `<code>.traineddata.gz`, found in node_modules from the working directory up (read from disk,
 * never from the network: tesseract.js's default is a CDN), or null when the package is not installed.
 */
export function trainedDataFolder(code: string): string | null {
  if (!folders.has(code)) folders.set(code, findFolder(code))
  return folders.get(code)!
}

function findFolder(code: string): string | null {
  for (let dir = process.cwd(); ; dir = path.dirname(dir)) {
    const folder = path.join(dir, 'node_modules', '@tesseract.js-data', code, MODEL_FOLDER)
    if (fs.existsSync(path.join(folder, `${code}.traineddata.gz`))) return folder
    if (path.dirname(dir) === dir) return null
  }
}

/** The language text is recognised in for a datastore of `language`: its own where its data is installed, else English. */
export function ocrLanguageFor(language: string | null | undefined): string {
  const code = TESSERACT_CODES[(language ?? DEFAULT_SEARCH_LANGUAGE) as SearchLanguage]
  return code && trainedDataFolder(code) ? code : ENGLISH
}

/** The datastore languages whose text can be recognised here (for the start log and the README). */
export function installedOcrLanguages(): SearchLanguage[] {
  return (Object.keys(TESSERACT_CODES) as SearchLanguage[]).filter(l => TESSERACT_CODES[l] && trainedDataFolder(TESSERACT_CODES[l]!))
}
