// Prisma CLI configuration (Prisma 7 reads it instead of package.json#prisma).
// DATABASE_URL is read directly rather than through `env()`, which throws when the
// variable is unset: `prisma generate` (run on every `npm install`) needs no database.
// Migrations are applied by `npm run db:migrate` (scripts/db/migrate.ts) because the
// native engine behind `prisma migrate` cannot be downloaded here; where it can, `npx
// prisma migrate deploy` applies the same folders.
import { defineConfig } from 'prisma/config';

export default defineConfig({
  schema: 'prisma/schema.prisma',
  migrations: {
    path: 'prisma/migrations',
  },
  datasource: {
    url: process.env.DATABASE_URL,
  },
});
