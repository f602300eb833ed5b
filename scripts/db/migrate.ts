// `npm run db:migrate`: applies the pending folders of prisma/migrations to DATABASE_URL,
// creating the database first when it does not exist. Stands in for `prisma migrate
// deploy`, which needs the native engine these machines cannot download.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ensureDatabase, redactUrl } from './postgres-admin.ts';
import { applyMigrations } from './schema-engine.ts';

export async function migrate(databaseUrl: string): Promise<{ applied: string[]; createdDatabase: boolean }> {
  const createdDatabase = await ensureDatabase(databaseUrl);
  const { applied } = await applyMigrations(databaseUrl);
  return { applied, createdDatabase };
}

async function main(): Promise<void> {
  const databaseUrl = process.env.DATABASE_URL;
  if (!databaseUrl) {
    throw new Error('DATABASE_URL is not set; it names the database to migrate, e.g. postgresql://postgres@127.0.0.1:5432/shop');
  }
  const started = performance.now();
  const { applied, createdDatabase } = await migrate(databaseUrl);
  const target = redactUrl(databaseUrl);
  if (createdDatabase) console.log(`Created database ${target}`);
  if (applied.length === 0) console.log(`No pending migrations for ${target}`);
  else console.log(`Applied ${applied.length} migration(s) to ${target}:\n${applied.map((name) => `  ${name}`).join('\n')}`);
  console.log(`Done in ${Math.round(performance.now() - started)} ms`);
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  main().catch((error: unknown) => {
    console.error(error instanceof Error ? error.message : error);
    process.exitCode = 1;
  });
}
