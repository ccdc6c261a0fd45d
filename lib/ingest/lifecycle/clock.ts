/** now() as the columns hold time: timestamp(3) without time zone, in UTC (as Prisma writes them). One clock for every due time. */
export const NOW_UTC = `(now() AT TIME ZONE 'UTC')`

/** A lease of `$n` seconds from now. */
export const leaseUntil = (param: string) => `${NOW_UTC} + make_interval(secs => ${param})`

/**
 * Background work (pages a site found, refreshes of content that is already searchable) waits for content a user
 * added directly and cannot search yet. The claim index (migration datasource_queue_order) has this expression.
 */
export const BACKGROUND = `("groupId" IS NOT NULL OR "lastSynch" IS NOT NULL)`
