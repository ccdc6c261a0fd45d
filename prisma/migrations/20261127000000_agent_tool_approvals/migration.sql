-- CreateEnum
CREATE TYPE "ToolApprovalStatus" AS ENUM ('pending', 'approved', 'denied');

-- AlterTable
ALTER TABLE "Lead" ADD COLUMN     "name" TEXT,
ADD COLUMN     "phone" TEXT;

-- CreateTable
CREATE TABLE "ToolApproval" (
    "id" TEXT NOT NULL,
    "organizationId" TEXT NOT NULL,
    "conversationId" TEXT NOT NULL,
    "agentId" TEXT NOT NULL,
    "messageId" TEXT,
    "toolCallId" TEXT NOT NULL,
    "toolName" TEXT NOT NULL,
    "arguments" JSONB NOT NULL,
    "continuation" JSONB NOT NULL,
    "status" "ToolApprovalStatus" NOT NULL DEFAULT 'pending',
    "decidedById" TEXT,
    "decidedByName" TEXT,
    "decidedAt" TIMESTAMP(3),
    "result" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "ToolApproval_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "ToolApproval_conversationId_createdAt_idx" ON "ToolApproval"("conversationId", "createdAt");

-- CreateIndex
CREATE INDEX "ToolApproval_organizationId_status_createdAt_idx" ON "ToolApproval"("organizationId", "status", "createdAt");

-- AddForeignKey
ALTER TABLE "ToolApproval" ADD CONSTRAINT "ToolApproval_organizationId_fkey" FOREIGN KEY ("organizationId") REFERENCES "Organization"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "ToolApproval" ADD CONSTRAINT "ToolApproval_agentId_fkey" FOREIGN KEY ("agentId") REFERENCES "Agent"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "ToolApproval" ADD CONSTRAINT "ToolApproval_conversationId_fkey" FOREIGN KEY ("conversationId") REFERENCES "Conversation"("id") ON DELETE CASCADE ON UPDATE CASCADE;
