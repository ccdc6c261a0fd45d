import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { defineConfig } from '@playwright/test'

// One throw-away DATA_DIR per run, shared with the workers through the environment
process.env.E2E_DATA_DIR ??= fs.mkdtempSync(path.join(os.tmpdir(), 'ads-e2e-'))
export const E2E_PORT = Number(process.env.E2E_PORT ?? 3005)
export const FAKE_MODEL_PORT = Number(process.env.E2E_FAKE_MODEL_PORT ?? 3006)
// the OpenID provider e2e/sso.spec.ts starts, and the client the server is registered as there
export const OIDC_PORT = Number(process.env.E2E_OIDC_PORT ?? E2E_PORT + 2)
export const OIDC = { name: 'Test IdP', clientId: 'e2e-dashboard', clientSecret: 'e2e-oidc-client-secret-0123456789' }
// a server of its own for e2e/sign-in.spec.ts (it stops and restarts it)
export const THROTTLE_PORT = Number(process.env.E2E_THROTTLE_PORT ?? E2E_PORT + 3)
// a server of its own for e2e/server-stop.spec.ts (it stops it mid-answer)
export const STOP_PORT = Number(process.env.E2E_STOP_PORT ?? E2E_PORT + 4)

export default defineConfig({
  testDir: 'e2e',
  outputDir: 'test-results/e2e',
  timeout: 60_000,
  expect: { timeout: 15_000 },
  fullyParallel: false,
  workers: 1,
  retries: process.env.CI ? 1 : 0,
  use: {
    baseURL: `http://127.0.0.1:${E2E_PORT}`,
    screenshot: 'only-on-failure',
    trace: 'retain-on-failure',
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
    },
  },
  // The rate-limit spec uses up this minute's public-query allowance of the machine's address: it runs in its own
  // project after every other spec (which ask public agents), never by file order.
  projects: [
    { name: 'main', testIgnore: /rate-limit\.spec\.ts$/ },
    { name: 'rate-limit', testMatch: /rate-limit\.spec\.ts$/, dependencies: ['main'] },
  ],
  webServer: [
    {
      command: `node e2e/support/fake-openai-server.mjs ${FAKE_MODEL_PORT}`,
      url: `http://127.0.0.1:${FAKE_MODEL_PORT}/health`,
      reuseExistingServer: false,
      timeout: 30_000,
    },
    {
      command: 'node scripts/serve.mjs',
      url: `http://127.0.0.1:${E2E_PORT}/api/health`,
      reuseExistingServer: false,
      timeout: 120_000,
      stdout: 'pipe',
      env: {
        DATA_DIR: process.env.E2E_DATA_DIR,
        PORT: String(E2E_PORT),
        HOST: '127.0.0.1',
        INIT_ADMIN_EMAIL: 'admin@example.com',
        INIT_ADMIN_PASSWORD: 'e2e-password-123',
        INIT_API_KEY: 'ads_e2e_initial_key_0123456789',
        OPENAI_API_KEY: 'sk-fake',
        OPENAI_BASE_URL: `http://127.0.0.1:${FAKE_MODEL_PORT}/v1`,
        EMBEDDINGS_DIMENSIONS: '64',
        CRAWLER_ALLOW_PRIVATE_HOSTS: '1',
        // a spec's fake Notion, behind the fake model server (e2e/support/fake-openai-server.mjs, POST /__notion)
        NOTION_API_URL: `http://127.0.0.1:${FAKE_MODEL_PORT}/notion`,
        NOTION_REQUESTS_PER_SECOND: '50',
        // agents' tools call APIs and MCP servers the specs start on 127.0.0.1
        TOOLS_ALLOW_PRIVATE_HOSTS: '1',
        // every spec signs in from 127.0.0.1, and one times wrong passwords of the admin: the throttle would refuse
        // the admin for 15 minutes after a retry of it. Throttling is tested on a server of its own
        // (e2e/sign-in.spec.ts)
        SIGN_IN_MAX_FAILURES: '1000',
        SIGN_IN_MAX_FAILURES_PER_ADDRESS: '1000',
        // single sign-on against the provider e2e/sso.spec.ts starts (read at sign-in, so it need not run before)
        OIDC_ISSUER: `http://127.0.0.1:${OIDC_PORT}`,
        OIDC_CLIENT_ID: OIDC.clientId,
        OIDC_CLIENT_SECRET: OIDC.clientSecret,
        OIDC_NAME: OIDC.name,
        OIDC_ALLOWED_DOMAINS: 'allowed.example',
        // the model server's probe (issue 27): the banner spec sees it stop within seconds
        HEALTH_PROBE_INTERVAL_MS: '2000',
        NEXT_TELEMETRY_DISABLED: '1',
      },
    },
  ],
})
