import { z } from 'zod'
import { HttpUrl } from '@/lib/domain/urls'
import { permanentError } from '../errors'
import { fetchWebPage } from '../web/page'
import { configText, documentSource, type DocumentKind } from './kind'

const WebPageConfig = z.object({ source_url: HttpUrl })

type WebPageConfig = z.infer<typeof WebPageConfig>

/** The name of a page or site before its title is known: host and path. */
export function nameFromUrl(url: string): string {
  const { host, pathname } = new URL(url)
  return (pathname === '/' ? host : host + pathname).slice(0, 200)
}

/** The stored config of a page at `url` (also of the pages a site finds). */
export const pageConfig = (url: string) => ({ source_url: url })

/** One web page, fetched through the guarded fetcher at each synchronisation; a site's pages are of this kind. */
export const webPageKind: DocumentKind<'web_page'> = {
  type: 'web_page',
  sync: 'document',
  readsStoredOriginal: false,
  creation: {
    via: 'json',
    json: {
      configSchema: WebPageConfig,
      storedConfig: (config: WebPageConfig) => pageConfig(config.source_url),
      defaultName: (config: WebPageConfig) => nameFromUrl(config.source_url),
    },
  },
  // each job waits on the network: run alone, with other lanes busy meanwhile
  batched: false,
  publicFields: ['source_url'],
  sourceOf: ds => configText(ds.config, 'source_url') ?? documentSource(ds),
  refreshable: true,
  async extract(job, signal) {
    const url = configText((job.config ?? {}) as Record<string, unknown>, 'source_url')
    if (!url) throw permanentError('This web page has no source_url in its config')
    // conditional only when the content those validators describe is the one held
    const held = job.lastSynch && job.contentHash && (job.httpEtag || job.httpLastModified)
    const validators = held ? { etag: job.httpEtag, lastModified: job.httpLastModified } : undefined
    const page = await fetchWebPage(url, { signal, validators })
    if ('notModified' in page) return page
    return { sections: [{ text: page.text, metadata: page.title ? { title: page.title } : {} }], title: page.title ?? undefined, validators: page.validators }
  },
  noTextMessage: 'The page has no text',
}
