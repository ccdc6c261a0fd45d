// The datasource vocabulary of spec §2, as the database enums spell it (prisma/schema.prisma).

export const DATASOURCE_TYPES = ['file', 'web_page', 'web_site', 'text', 'notion', 'notion_page'] as const
export type DatasourceType = (typeof DATASOURCE_TYPES)[number]

export const DATASOURCE_STATUSES = ['unsynched', 'pending', 'running', 'synched', 'error', 'usage_limit_reached'] as const
export type DatasourceStatus = (typeof DATASOURCE_STATUSES)[number]

/** A datasource in one of these is being worked on: lists showing it keep refreshing until none is. */
export const ACTIVE_STATUSES: readonly DatasourceStatus[] = ['pending', 'running']

/** A datasource in one of these has finished its last synchronisation without content to show for it. */
export const FAILED_STATUSES: readonly DatasourceStatus[] = ['error', 'usage_limit_reached']

/**
 * Whether a datasource of each type is a group whose children (a web site's pages) hold the content. The dashboard
 * reads this instead of testing types; the kinds registry (lib/ingest/kinds) checks it against each kind's `sync`.
 */
export const HAS_CHILDREN: Record<DatasourceType, boolean> = { file: false, text: false, web_page: false, web_site: true, notion: true, notion_page: false }

/** Whether a datasource of each type keeps the original it was made from (an uploaded file, an upserted text), to download. */
export const HAS_ORIGINAL: Record<DatasourceType, boolean> = { file: true, text: true, web_page: false, web_site: false, notion: false, notion_page: false }
