-- A datasource is due from the moment it is queued: new rows get the database's clock, as re-queued ones do
-- (lib/ingest/lifecycle/enqueue.ts), instead of NULL, which the claim's ORDER BY put after every re-sync.
-- (truncated: timestamp(3) rounds, and a row stored half a millisecond in the future is not due for a claim at once)
ALTER TABLE "Datasource" ALTER COLUMN "nextRunAt" SET DEFAULT date_trunc('milliseconds', now() AT TIME ZONE 'UTC');
UPDATE "Datasource" SET "nextRunAt" = "createdAt" WHERE status = 'pending' AND "nextRunAt" IS NULL;

-- The claim's order (lib/ingest/lifecycle/claim.ts): content nobody can search yet, that a user added directly,
-- before background work (pages a site found, refreshes of synched content), each oldest first.
DROP INDEX IF EXISTS "Datasource_status_nextRunAt_idx";
CREATE INDEX "Datasource_claim_idx" ON "Datasource" ("status", ("groupId" IS NOT NULL OR "lastSynch" IS NOT NULL), "nextRunAt");
