/** @type {import('next').NextConfig} */
const nextConfig = {
  // PGlite's WASM and the pgvector bundle must be loaded from node_modules at run time, not bundled
  serverExternalPackages: ['@electric-sql/pglite', '@electric-sql/pglite-pgvector', '@node-rs/argon2', 'pg', 'unpdf', 'exceljs', 'mammoth', 'nodemailer'],
  poweredByHeader: false,
  typedRoutes: false,
  // the build checks the app's own code; tests, e2e and scripts are checked by `npm run typecheck`
  typescript: { tsconfigPath: 'tsconfig.app.json' },
}

export default nextConfig
