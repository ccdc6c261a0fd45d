-- issue 27: an organization's own model map (overrides MODEL_MAP), and the sync workers' heartbeats

-- AlterTable
ALTER TABLE "Organization" ADD COLUMN     "modelMap" JSONB;

-- CreateTable
CREATE TABLE "WorkerHeartbeat" (
    "workerId" TEXT NOT NULL,
    "host" TEXT NOT NULL,
    "pid" INTEGER NOT NULL,
    "startedAt" TIMESTAMP(3) NOT NULL,
    "lastSeenAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "WorkerHeartbeat_pkey" PRIMARY KEY ("workerId")
);
