import { logger } from '@/lib/logger'
import { installedOcrLanguages } from './loaders/ocr'
import { renderSetting } from './web/render'

/**
 * One start-log line of what this worker reads beyond text: the languages it recognises in images and scans
 * (their trained-data packages installed), and whether pages that need JavaScript are rendered, with which
 * Chromium, or why not.
 */
export function logIngestCapabilities(): void {
  const { mode, chromium, render } = renderSetting()
  const rendering = render
    ? `on (CRAWLER_RENDER=${mode}, Chromium at ${chromium ?? 'none found: such pages will fail'})`
    : mode === 'never'
      ? 'off (CRAWLER_RENDER=never)'
      : 'off: no Chromium found (install one, or set CHROMIUM_PATH)'
  logger.info('ingestion', { ocrLanguages: installedOcrLanguages(), renderingPagesThatNeedJavaScript: rendering })
  if (mode === 'always' && !chromium) logger.warn('CRAWLER_RENDER=always but no Chromium was found: web pages will fail (set CHROMIUM_PATH)')
}
