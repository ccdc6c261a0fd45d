-- Agent tools (issue 25): the tools an agent may call (header values encrypted), and the calls an answer made
ALTER TABLE "Agent" ADD COLUMN     "tools" JSONB NOT NULL DEFAULT '[]';

ALTER TABLE "Message" ADD COLUMN     "toolCalls" JSONB NOT NULL DEFAULT '[]';
