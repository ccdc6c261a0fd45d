-- Roles of a member (DESIGN.md §10): owner ⊃ admin ⊃ editor ⊃ operator ⊃ viewer. "member" was what an editor is now.
ALTER TYPE "MembershipRole" RENAME VALUE 'member' TO 'editor';
ALTER TYPE "MembershipRole" ADD VALUE 'operator';
ALTER TYPE "MembershipRole" ADD VALUE 'viewer';

-- Scoped API keys: scopes, the datastores and agents a key may see, an expiry (none: as before)
-- AlterTable
ALTER TABLE "ApiKey" ADD COLUMN     "agentIds" TEXT[] DEFAULT ARRAY[]::TEXT[],
ADD COLUMN     "datastoreIds" TEXT[] DEFAULT ARRAY[]::TEXT[],
ADD COLUMN     "expiresAt" TIMESTAMP(3),
ADD COLUMN     "scopes" TEXT[] DEFAULT ARRAY[]::TEXT[];

-- AlterTable
ALTER TABLE "Membership" ALTER COLUMN "role" SET DEFAULT 'editor';

-- CreateTable
CREATE TABLE "AuditEntry" (
    "id" TEXT NOT NULL,
    "organizationId" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "actorType" TEXT NOT NULL,
    "actorId" TEXT NOT NULL,
    "actorLabel" TEXT NOT NULL,
    "action" TEXT NOT NULL,
    "targetType" TEXT,
    "targetId" TEXT,
    "targetName" TEXT,
    "clientAddress" TEXT,
    "requestId" TEXT,

    CONSTRAINT "AuditEntry_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "AuditEntry_organizationId_createdAt_idx" ON "AuditEntry"("organizationId", "createdAt");

-- CreateIndex
CREATE INDEX "AuditEntry_organizationId_action_createdAt_idx" ON "AuditEntry"("organizationId", "action", "createdAt");

-- AddForeignKey
ALTER TABLE "AuditEntry" ADD CONSTRAINT "AuditEntry_organizationId_fkey" FOREIGN KEY ("organizationId") REFERENCES "Organization"("id") ON DELETE CASCADE ON UPDATE CASCADE;
