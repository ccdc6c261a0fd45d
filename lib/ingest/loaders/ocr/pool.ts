import type { Worker } from 'tesseract.js'
import { config } from '@/lib/config'
import { ENGLISH, trainedDataFolder } from './languages'

/** Why a page's text could not be recognised: the image is unreadable, or recognition took too long. */
export class RecognitionFailed extends Error {
  constructor(message: string) {
    super(message)
    this.name = 'RecognitionFailed'
  }
}

interface Engine {
  worker: Worker
  language: string
  idleTimer?: NodeJS.Timeout
}

// A resting engine (~170 MB) is let go after this long without work
const IDLE_MS = 60_000

/**
 * Tesseract engines (each a worker thread running the WebAssembly build) shared by the whole process, at most
 * OCR_CONCURRENCY recognising at once however many jobs ask; an engine is kept for its language while work keeps
 * coming. A recognition past the time limit, aborted, or failing ends its engine (a wedged engine is never reused).
 */
class RecognitionPool {
  private resting: Engine[] = []
  private running = 0
  private queue: (() => void)[] = []

  async recognise(image: Uint8Array, language: string, options: { timeoutMs: number; signal?: AbortSignal }): Promise<string> {
    await this.acquire(options.signal)
    let engine: Engine | undefined
    try {
      engine = await this.engineFor(language)
      const text = await withinLimit(engine.worker.recognize(Buffer.from(image)), options)
      this.rest(engine)
      return text.data.text
    } catch (error) {
      if (engine) void engine.worker.terminate().catch(() => {})
      throw error
    } finally {
      this.release()
    }
  }

  private async acquire(signal?: AbortSignal): Promise<void> {
    signal?.throwIfAborted()
    if (this.running < config().OCR_CONCURRENCY) {
      this.running++
      return
    }
    await new Promise<void>((resolve, reject) => {
      const turn = () => {
        signal?.removeEventListener('abort', leave)
        resolve()
      }
      const leave = () => {
        this.queue = this.queue.filter(t => t !== turn)
        reject(signal!.reason)
      }
      signal?.addEventListener('abort', leave, { once: true })
      this.queue.push(turn)
    })
  }

  // the running count passes straight to the next in line
  private release(): void {
    const next = this.queue.shift()
    if (next) next()
    else this.running--
  }

  private async engineFor(language: string): Promise<Engine> {
    const index = this.resting.findIndex(e => e.language === language)
    if (index >= 0) {
      const [engine] = this.resting.splice(index, 1)
      clearTimeout(engine.idleTimer)
      return engine
    }
    // engines in use plus resting ones stay within OCR_CONCURRENCY: an engine of another language makes room
    while (this.resting.length > 0 && this.resting.length + this.running > config().OCR_CONCURRENCY) this.dismiss(this.resting.shift()!)
    return { worker: await startEngine(language), language }
  }

  private rest(engine: Engine): void {
    engine.idleTimer = setTimeout(() => {
      this.resting = this.resting.filter(e => e !== engine)
      this.dismiss(engine)
    }, IDLE_MS)
    engine.idleTimer.unref()
    this.resting.push(engine)
  }

  private dismiss(engine: Engine): void {
    clearTimeout(engine.idleTimer)
    void engine.worker.terminate().catch(() => {})
  }

  /** Ends every resting engine (tests, shutdown). */
  async close(): Promise<void> {
    const engines = this.resting.splice(0)
    await Promise.all(engines.map(e => (clearTimeout(e.idleTimer), e.worker.terminate().catch(() => {}))))
  }
}

async function startEngine(language: string): Promise<Worker> {
  // loaded on first use: processes that never recognise text (a web server) never load it
  const { createWorker, OEM } = await import('tesseract.js')
  const langPath = trainedDataFolder(language) ?? trainedDataFolder(ENGLISH)
  if (!langPath) throw new Error('No OCR language data is installed (the npm package @tesseract.js-data/eng is missing)')
  // offline: the trained data is read from the package's folder, and never cached elsewhere; errorHandler keeps a
  // failed job a rejected promise (tesseract.js throws it from an event handler otherwise, crashing the process)
  return createWorker(trainedDataFolder(language) ? language : ENGLISH, OEM.LSTM_ONLY, { langPath, cacheMethod: 'none', gzip: true, errorHandler: () => {} })
}

async function withinLimit<T>(work: Promise<T>, { timeoutMs, signal }: { timeoutMs: number; signal?: AbortSignal }): Promise<T> {
  let timer: NodeJS.Timeout | undefined
  let onAbort: (() => void) | undefined
  const stop = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new RecognitionFailed(`recognition took longer than ${Math.round(timeoutMs / 1000)} s (OCR_PAGE_TIMEOUT_SECONDS)`)), timeoutMs)
    onAbort = () => reject(signal!.reason)
    signal?.addEventListener('abort', onAbort, { once: true })
  })
  try {
    return await Promise.race([
      work.catch(error => {
        throw new RecognitionFailed(reasonOf(error))
      }),
      stop,
    ])
  } finally {
    clearTimeout(timer)
    if (onAbort) signal?.removeEventListener('abort', onAbort)
  }
}

// tesseract.js rejects with the engine's words, as a string
function reasonOf(error: unknown): string {
  const words = String(error).replace(/^(Error: )+/, '')
  return /attempting to read image/i.test(words) ? 'the image data is damaged or cannot be decoded' : words
}

const pools = globalThis as unknown as { __recognitionPool?: RecognitionPool }

/** The process's pool (one per process, also across Next's module instances). */
export function recognitionPool(): RecognitionPool {
  return (pools.__recognitionPool ??= new RecognitionPool())
}
