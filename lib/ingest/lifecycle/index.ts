// The datasource lifecycle: the only writer of a datasource's status, attempts, lease, due time and chunks.
// Creating and re-queueing (enqueue), claiming and renewing (claim), ending (settle, write-chunks) and a group's
// status from its children's (group-status) all go through here, on one clock (clock.ts); so do scheduled refreshes
// (refresh) and removing datasources (remove).
export { claimBatchOf, claimDatasources, claimNextDatasource, expireLeasesOfDeadWorkers, renewLeases } from './claim'
export { createQueuedDatasource, createQueuedDatasources, enqueueDatasources, type NewDatasource, type NewQueuedDatasource } from './enqueue'
export { refreshGroupStatus } from './group-status'
export { enqueueDueRefreshes, rescheduleRefreshes, scheduleNextRefresh } from './refresh'
export { countRemovedPages, removeDatasources } from './remove'
export { settle, usageLimitMessage, type HeldValidators } from './settle'
export { writeChunks, type ChunkWrite, type SyncedContent, type WriteOutcome } from './write-chunks'
export { settleUnchanged } from './write-generations'
