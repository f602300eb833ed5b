// Test isolation: each test file gets its own database, cloned in milliseconds from a
// template that has every migration applied. The template is built once per migration
// history: its name carries a hash of the migration files, so editing or adding a
// migration builds a new one and old ones are dropped.
import { createHash, randomBytes } from 'node:crypto';
import { readMigrationsList, applyMigrations } from './schema-engine.ts';
import { quoteIdent, withClient, withDatabaseName } from './postgres-admin.ts';

const TEMPLATE_PREFIX = 'shop_template_';
const TEST_DB_PREFIX = 'shop_test_';
// Any fixed bigint; every process building templates on this server agrees on it.
const TEMPLATE_LOCK_KEY = 0x73686f705f746d70n; // "shop_tmp"

export async function migrationsHash(): Promise<string> {
  const { migrationDirectories } = await readMigrationsList();
  const hash = createHash('sha256');
  for (const dir of migrationDirectories) {
    const content = dir.migrationFile.content;
    if (content.tag === 'error') throw new Error(`Cannot read migration ${dir.path}: ${content.value}`);
    hash.update(`${dir.path}\0${content.value}\0`);
  }
  return hash.digest('hex').slice(0, 16);
}

/**
 * Makes sure `shop_template_<hash of the migrations>` exists with every migration applied,
 * and returns its name. Safe to call from several processes at once: one builds, the others
 * wait on an advisory lock and find it built.
 */
export async function ensureTemplateDatabase(adminUrl: string): Promise<string> {
  const name = `${TEMPLATE_PREFIX}${await migrationsHash()}`;
  return withClient(adminUrl, async (admin) => {
    await admin.query('SELECT pg_advisory_lock($1)', [TEMPLATE_LOCK_KEY.toString()]);
    try {
      const existing = await admin.query<{ datname: string }>(
        "SELECT datname FROM pg_database WHERE datname LIKE 'shop\\_template\\_%' OR datname LIKE 'shop\\_tmpl\\_build\\_%'",
      );
      for (const { datname } of existing.rows) {
        if (datname !== name) await admin.query(`DROP DATABASE IF EXISTS ${quoteIdent(datname)} WITH (FORCE)`);
      }
      if (existing.rows.some((row) => row.datname === name)) return name;

      // Built under another name and renamed when complete, so a crash mid-build never
      // leaves a half-migrated template behind under the real name.
      const building = `shop_tmpl_build_${name.slice(TEMPLATE_PREFIX.length)}`;
      await admin.query(`CREATE DATABASE ${quoteIdent(building)}`);
      await applyMigrations(withDatabaseName(adminUrl, building));
      await admin.query(`ALTER DATABASE ${quoteIdent(building)} RENAME TO ${quoteIdent(name)}`);
      return name;
    } finally {
      await admin.query('SELECT pg_advisory_unlock($1)', [TEMPLATE_LOCK_KEY.toString()]);
    }
  });
}

export type TestDatabase = { name: string; url: string; drop(): Promise<void> };

/** A fresh database cloned from the template (CREATE DATABASE ... TEMPLATE copies files, no SQL replay). */
export async function createTestDatabase(adminUrl: string, template: string): Promise<TestDatabase> {
  const name = `${TEST_DB_PREFIX}${Date.now().toString(36)}_${randomBytes(4).toString('hex')}`;
  await withClient(adminUrl, (admin) => admin.query(`CREATE DATABASE ${quoteIdent(name)} TEMPLATE ${quoteIdent(template)}`));
  return {
    name,
    url: withDatabaseName(adminUrl, name),
    async drop() {
      await withClient(adminUrl, (admin) => admin.query(`DROP DATABASE IF EXISTS ${quoteIdent(name)} WITH (FORCE)`));
    },
  };
}
