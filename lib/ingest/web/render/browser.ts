import type { Browser } from 'playwright-core'
import { config } from '@/lib/config'
import { logger } from '@/lib/logger'
import { messageOf, permanentError, transientError } from '../../errors'
import { USER_AGENT } from '../request'
import { CHROMIUM_ARGS, chromiumPath } from './chromium'
import { guardRequests } from './guard'

export interface RenderedPage {
  /** The URL the page ended at. */
  url: string
  /** The document once its scripts ran. */
  html: string
  /** Requests of the page the address check refused. */
  refused: string[]
}

// Chromium's own name resolution is turned off: every request is answered by the guarded fetcher (guard.ts), so
// anything that escaped interception (a WebRTC probe, a prefetch) cannot reach a host at all
const ISOLATION_ARGS = ['--host-resolver-rules=MAP * ~NOTFOUND', '--force-webrtc-ip-handling-policy=disable_non_proxied_udp', '--dns-prefetch-disable']
// A browser unused this long is closed (~150 MB)
const IDLE_MS = 60_000

const state = globalThis as unknown as { __renderBrowser?: Promise<Browser>; __renderTurn?: Promise<unknown>; __renderIdle?: NodeJS.Timeout }

/**
 * Renders `url` in headless Chromium and returns its document after its scripts ran: one page at a time per process
 * (pages wait their turn), within CRAWLER_RENDER_TIMEOUT_SECONDS (what loaded by then is kept), each in a fresh
 * context (no cookies or storage carried over), service workers and WebSockets refused, every request guarded.
 */
export function renderPage(url: string, signal?: AbortSignal): Promise<RenderedPage> {
  const turn = (state.__renderTurn ?? Promise.resolve()).catch(() => {}).then(() => renderNow(url, signal))
  state.__renderTurn = turn.catch(() => {})
  return turn
}

async function renderNow(url: string, outer?: AbortSignal): Promise<RenderedPage> {
  outer?.throwIfAborted()
  const timeoutMs = config().CRAWLER_RENDER_TIMEOUT_SECONDS * 1000
  const stop = new AbortController()
  const onAbort = () => stop.abort(outer!.reason)
  outer?.addEventListener('abort', onAbort, { once: true })
  const refused: string[] = []
  const context = await (await browser()).newContext({ userAgent: USER_AGENT, serviceWorkers: 'block', acceptDownloads: false })
  try {
    await context.routeWebSocket(/.*/, ws => ws.close({ code: 1008, reason: 'not available while rendering' }))
    await context.route('**/*', guardRequests(refused, stop.signal))
    const page = await context.newPage()
    const deadline = Date.now() + timeoutMs
    const response = await page.goto(url, { waitUntil: 'load', timeout: timeoutMs }).catch(error => {
      throw transientError(`The page ${url} could not be rendered: ${firstLine(error)}`)
    })
    if (!response) throw permanentError(`The page ${url} could not be rendered: no document`)
    // scripts usually fetch their content after load: wait for the network to rest, within what time is left
    await page.waitForLoadState('networkidle', { timeout: Math.max(1, deadline - Date.now()) }).catch(() => {})
    outer?.throwIfAborted()
    return { url: page.url(), html: await page.content(), refused }
  } finally {
    outer?.removeEventListener('abort', onAbort)
    stop.abort()
    await context.close().catch(() => {})
    keepBrowserWhileUsed()
  }
}

async function browser(): Promise<Browser> {
  clearTimeout(state.__renderIdle)
  state.__renderBrowser ??= launch()
  const launched = await state.__renderBrowser.catch(error => {
    state.__renderBrowser = undefined
    throw error
  })
  if (launched.isConnected()) return launched
  state.__renderBrowser = undefined
  return browser()
}

async function launch(): Promise<Browser> {
  const executablePath = chromiumPath()
  if (!executablePath) throw permanentError('This page needs JavaScript, and no Chromium was found to render it (set CHROMIUM_PATH, or CRAWLER_RENDER=never)')
  // loaded on first use: processes that never render a page never load it
  const { chromium } = await import('playwright-core')
  try {
    return await chromium.launch({ executablePath, args: [...CHROMIUM_ARGS, ...ISOLATION_ARGS], timeout: 30_000 })
  } catch (error) {
    throw transientError(`Chromium (${executablePath}) could not start: ${firstLine(error)}`)
  }
}

function keepBrowserWhileUsed(): void {
  clearTimeout(state.__renderIdle)
  state.__renderIdle = setTimeout(() => void closeRenderer(), IDLE_MS)
  state.__renderIdle.unref()
}

/** Closes the rendering browser (idle, tests, shutdown); the next render starts one again. */
export async function closeRenderer(): Promise<void> {
  clearTimeout(state.__renderIdle)
  const launched = state.__renderBrowser
  state.__renderBrowser = undefined
  await launched?.then(b => b.close()).catch(error => logger.warn('rendering browser did not close cleanly', { error: messageOf(error) }))
}

function firstLine(error: unknown): string {
  return messageOf(error).split('\n')[0]
}
