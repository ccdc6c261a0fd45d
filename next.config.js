/** @type {import('next').NextConfig} */
const nextConfig = {
  // PGlite's WASM and the pgvector bundle must be loaded from node_modules at run time, not bundled
  serverExternalPackages: ['@electric-sql/pglite', '@electric-sql/pglite-pgvector', '@node-rs/argon2', 'pg', 'unpdf', 'exceljs', 'mammoth', 'jsdom'],
  poweredByHeader: false,
  typedRoutes: false,
}

export default nextConfig
