-- Scheduled refreshes, conditional fetches and pruning (lib/ingest/lifecycle/refresh.ts, lib/ingest/kinds/web-*.ts)
ALTER TABLE "Datastore" ADD COLUMN "refreshHours" INTEGER;
ALTER TABLE "Datasource" ADD COLUMN "refreshHours" INTEGER,
  ADD COLUMN "nextRefreshAt" TIMESTAMP(3),
  ADD COLUMN "httpEtag" TEXT,
  ADD COLUMN "httpLastModified" TEXT,
  ADD COLUMN "fetchContext" TEXT,
  ADD COLUMN "goneCount" INTEGER NOT NULL DEFAULT 0,
  ADD COLUMN "syncOutcome" TEXT,
  ADD COLUMN "refreshStats" JSONB;
CREATE INDEX "Datasource_nextRefreshAt_idx" ON "Datasource"("nextRefreshAt");

-- Outgoing webhooks (lib/webhooks)
CREATE TABLE "WebhookEndpoint" (
    "id" TEXT NOT NULL,
    "organizationId" TEXT NOT NULL,
    "url" TEXT NOT NULL,
    "description" TEXT,
    "events" TEXT[],
    "secretCiphertext" TEXT NOT NULL,
    "secretPrefix" TEXT NOT NULL,
    "enabled" BOOLEAN NOT NULL DEFAULT true,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,
    CONSTRAINT "WebhookEndpoint_pkey" PRIMARY KEY ("id")
);
CREATE INDEX "WebhookEndpoint_organizationId_createdAt_idx" ON "WebhookEndpoint"("organizationId", "createdAt");
ALTER TABLE "WebhookEndpoint" ADD CONSTRAINT "WebhookEndpoint_organizationId_fkey" FOREIGN KEY ("organizationId") REFERENCES "Organization"("id") ON DELETE CASCADE ON UPDATE CASCADE;

CREATE TABLE "WebhookDelivery" (
    "id" TEXT NOT NULL,
    "organizationId" TEXT NOT NULL,
    "endpointId" TEXT NOT NULL,
    "event" TEXT NOT NULL,
    "body" TEXT NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'pending',
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "nextRunAt" TIMESTAMP(3) NOT NULL DEFAULT date_trunc('milliseconds', now() AT TIME ZONE 'UTC'),
    "leaseOwner" TEXT,
    "leaseExpiresAt" TIMESTAMP(3),
    "responseStatus" INTEGER,
    "lastError" TEXT,
    "deliveredAt" TIMESTAMP(3),
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "WebhookDelivery_pkey" PRIMARY KEY ("id")
);
CREATE INDEX "WebhookDelivery_endpointId_createdAt_idx" ON "WebhookDelivery"("endpointId", "createdAt");
CREATE INDEX "WebhookDelivery_status_nextRunAt_idx" ON "WebhookDelivery"("status", "nextRunAt");
ALTER TABLE "WebhookDelivery" ADD CONSTRAINT "WebhookDelivery_endpointId_fkey" FOREIGN KEY ("endpointId") REFERENCES "WebhookEndpoint"("id") ON DELETE CASCADE ON UPDATE CASCADE;
