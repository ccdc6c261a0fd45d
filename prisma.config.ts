import { defineConfig } from 'prisma/config'

// The app applies prisma/migrations itself at start (lib/db/migrate.ts); this file only serves `prisma generate`.
export default defineConfig({
  schema: 'prisma/schema.prisma',
  migrations: { path: 'prisma/migrations' },
})
