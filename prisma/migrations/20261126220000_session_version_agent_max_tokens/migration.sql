-- issue 22: a public visitor's maxTokens is capped by the agent's own limit
ALTER TABLE "Agent" ADD COLUMN     "maxTokens" INTEGER;

-- issue 22: sessions minted under an older version (before a sign-out or password change) are refused
ALTER TABLE "User" ADD COLUMN     "sessionVersion" INTEGER NOT NULL DEFAULT 0;
