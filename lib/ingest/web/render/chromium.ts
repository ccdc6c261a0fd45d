import fs from 'node:fs'
import { config } from '@/lib/config'

/** Headless Chromium as the e2e tests run it (playwright.config.ts): no sandbox (containers), no GPU, no background traffic. */
export const CHROMIUM_ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync']

const DEFAULT_PATH = '/usr/bin/chromium'

/** The Chromium to render pages with: CHROMIUM_PATH, else Debian's at /usr/bin/chromium; null when neither is there. */
export function chromiumPath(): string | null {
  const path = config().CHROMIUM_PATH || DEFAULT_PATH
  try {
    fs.accessSync(path, fs.constants.X_OK)
    return path
  } catch {
    return null
  }
}

export type RenderMode = 'always' | 'never' | 'auto'

/**
 * Whether pages that need JavaScript are rendered, and why not when they are not: CRAWLER_RENDER=never, or no
 * Chromium found (auto renders only with one; always with none found is said in the start log, and pages fail then).
 */
export function renderSetting(): { render: boolean; mode: RenderMode; chromium: string | null } {
  const mode = config().CRAWLER_RENDER
  const chromium = chromiumPath()
  return { mode, chromium, render: mode === 'always' || (mode === 'auto' && chromium !== null) }
}
