-- Notion (issue 26) and connections (issue 21): two datasource kinds, and an organization's connections to other
-- services with their secrets encrypted (lib/crypto/secrets.ts)

ALTER TYPE "DatasourceType" ADD VALUE 'notion';
ALTER TYPE "DatasourceType" ADD VALUE 'notion_page';

-- CreateTable
CREATE TABLE "Connection" (
    "id" TEXT NOT NULL,
    "organizationId" TEXT NOT NULL,
    "provider" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "secretCiphertext" TEXT NOT NULL,
    "secretPrefix" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "Connection_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "Connection_organizationId_createdAt_idx" ON "Connection"("organizationId", "createdAt");

-- AddForeignKey
ALTER TABLE "Connection" ADD CONSTRAINT "Connection_organizationId_fkey" FOREIGN KEY ("organizationId") REFERENCES "Organization"("id") ON DELETE CASCADE ON UPDATE CASCADE;
