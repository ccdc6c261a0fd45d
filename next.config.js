// Next's proxy (proxy.ts) buffers a copy of every request body it sees and cuts it at 10 MB by default, so a valid
// 12 MB JSON body reached the route truncated ("not valid JSON") and a 12 MB upload "malformed". The copy is allowed up
// to the largest body we accept plus room for multipart's other parts; past our own limits the routes answer 413
// themselves (lib/http/body.ts). Read when the server starts, so LIMIT_* set at `npm start` count.
const MB = 1024 * 1024
const limitMb = (name, fallback) => {
  const value = Number(process.env[name])
  return Number.isInteger(value) && value > 0 ? value : fallback
}
const largestBodyBytes = Math.max(limitMb('LIMIT_BODY_SIZE_MB', 20), limitMb('LIMIT_FILE_SIZE_MB', 50)) * MB + MB

// The dashboard is framed by itself only (clickjacking); the public chat page (/chat/<agentId>) keeps the per-agent
// frame-ancestors that proxy.ts sets from the agent's allowed domains
const FRAME_OWN_ORIGIN_ONLY = [
  { key: 'Content-Security-Policy', value: "frame-ancestors 'self'" },
  { key: 'X-Frame-Options', value: 'SAMEORIGIN' },
]

/** @type {import('next').NextConfig} */
const nextConfig = {
  experimental: { proxyClientMaxBodySize: largestBodyBytes },
  async headers() {
    return [
      { source: '/', headers: FRAME_OWN_ORIGIN_ONLY },
      { source: '/:path((?!chat(?:/|$)|api(?:/|$)|widget\\.js$).*)', headers: FRAME_OWN_ORIGIN_ONLY },
    ]
  },
  // PGlite's WASM and the pgvector bundle must be loaded from node_modules at run time, not bundled; so must
  // tesseract.js (its worker-thread script and WebAssembly core), @napi-rs/canvas (a native binary) and playwright-core;
  // OpenTelemetry's SDK is required from node_modules only when OTEL_EXPORTER_OTLP_ENDPOINT is set (lib/tracing/start.ts)
  serverExternalPackages: [
    '@electric-sql/pglite', '@electric-sql/pglite-pgvector', '@node-rs/argon2', 'pg', 'unpdf', 'exceljs', 'mammoth',
    'tesseract.js', '@napi-rs/canvas', 'playwright-core', 'nodemailer',
    '@opentelemetry/sdk-trace-node', '@opentelemetry/exporter-trace-otlp-http', '@opentelemetry/resources',
  ],
  poweredByHeader: false,
  typedRoutes: false,
  // the build checks the app's own code; tests, e2e and scripts are checked by `npm run typecheck`
  typescript: { tsconfigPath: 'tsconfig.app.json' },
}

export default nextConfig
