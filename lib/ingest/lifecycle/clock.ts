/**
 * now() as the columns hold time: timestamp(3) without time zone, in UTC (as Prisma writes them). One clock for every
 * due time. Truncated to the millisecond: a timestamp(3) column rounds, so a row queued "now" could be stored up to
 * half a millisecond in the future and not be due for a claim that follows at once (seen on PostgreSQL).
 */
export const NOW_UTC = `date_trunc('milliseconds', now() AT TIME ZONE 'UTC')`

/** A lease of `$n` seconds from now. */
export const leaseUntil = (param: string) => `${NOW_UTC} + make_interval(secs => ${param})`

/**
 * Background work (pages a site found, refreshes of content that is already searchable) waits for content a user
 * added directly and cannot search yet. The claim index (migration datasource_queue_order) has this expression.
 */
export const BACKGROUND = `("groupId" IS NOT NULL OR "lastSynch" IS NOT NULL)`
