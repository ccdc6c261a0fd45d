-- Issues 13, 14 and 15: retrieval settings and record of an answer, an agent's public face, votes on answers,
-- the knowledge-gap queue, daily datastore queries, and the content-hash lookup behind duplicate detection.

-- AlterTable
ALTER TABLE "Agent" ADD COLUMN     "allowedDomains" TEXT[] NOT NULL DEFAULT ARRAY[]::TEXT[],
ADD COLUMN     "appearance" JSONB NOT NULL DEFAULT '{}',
ADD COLUMN     "minScore" DOUBLE PRECISION,
ADD COLUMN     "noAnswerMessage" TEXT,
ADD COLUMN     "requireSignedVisitors" BOOLEAN NOT NULL DEFAULT false,
ADD COLUMN     "rewriteQuestions" BOOLEAN NOT NULL DEFAULT true,
ADD COLUMN     "visitorSecretCiphertext" TEXT,
ADD COLUMN     "visitorSecretPrefix" TEXT;

-- AlterTable
ALTER TABLE "Conversation" ADD COLUMN     "verifiedVisitorId" TEXT;

-- AlterTable
ALTER TABLE "Message" ADD COLUMN     "gapResolution" TEXT,
ADD COLUMN     "gapResolvedAt" TIMESTAMP(3),
ADD COLUMN     "noSources" BOOLEAN NOT NULL DEFAULT false,
ADD COLUMN     "searchQuery" TEXT,
ADD COLUMN     "topScore" DOUBLE PRECISION;

-- CreateTable
CREATE TABLE "MessageFeedback" (
    "id" TEXT NOT NULL,
    "organizationId" TEXT NOT NULL,
    "messageId" TEXT NOT NULL,
    "voterKey" TEXT NOT NULL,
    "vote" TEXT NOT NULL,
    "comment" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "MessageFeedback_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "UsageDay" (
    "organizationId" TEXT NOT NULL,
    "day" TEXT NOT NULL,
    "datastoreQueries" INTEGER NOT NULL DEFAULT 0,

    CONSTRAINT "UsageDay_pkey" PRIMARY KEY ("organizationId","day")
);

-- CreateIndex
CREATE INDEX "MessageFeedback_organizationId_createdAt_idx" ON "MessageFeedback"("organizationId", "createdAt");

-- CreateIndex
CREATE UNIQUE INDEX "MessageFeedback_messageId_voterKey_key" ON "MessageFeedback"("messageId", "voterKey");

-- CreateIndex
CREATE INDEX "Conversation_organizationId_updatedAt_idx" ON "Conversation"("organizationId", "updatedAt");

-- CreateIndex
CREATE INDEX "Conversation_agentId_verifiedVisitorId_idx" ON "Conversation"("agentId", "verifiedVisitorId");

-- AddForeignKey
ALTER TABLE "MessageFeedback" ADD CONSTRAINT "MessageFeedback_messageId_fkey" FOREIGN KEY ("messageId") REFERENCES "Message"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "MessageFeedback" ADD CONSTRAINT "MessageFeedback_organizationId_fkey" FOREIGN KEY ("organizationId") REFERENCES "Organization"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "UsageDay" ADD CONSTRAINT "UsageDay_organizationId_fkey" FOREIGN KEY ("organizationId") REFERENCES "Organization"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- CreateIndex
CREATE INDEX "Datasource_datastoreId_contentHash_idx" ON "Datasource"("datastoreId", "contentHash");
