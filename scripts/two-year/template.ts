// The two-year shop is built once into a template database and reused: a run clones it
// (CREATE DATABASE ... TEMPLATE copies files, minutes faster than building) and drops its
// clone afterwards. What the template was built from (generator version, migration
// folders, scale) is its database comment; a template built from anything else is rebuilt.
import { randomBytes } from 'node:crypto';
import type pg from 'pg';
import { migrate } from '../db/migrate.ts';
import { quoteIdent, withClient, withDatabaseName } from '../db/postgres-admin.ts';
import { readMigrationsList } from '../db/schema-engine.ts';
import { migrationsHash } from '../db/test-database.ts';
import { describeFill, fillTwoYearShop, type KnownAccounts } from './generate.ts';
import type { Log } from './runner.ts';
import { GENERATOR_VERSION, type Sizes } from './shape.ts';

export const DEFAULT_TEMPLATE = 'shop_two_year';

export type TemplateMeta = {
  kind: 'two-year-shop';
  generator: number;
  scale: number;
  migrations: string[];
  /** The migration files' contents: a migration edited in place also means a rebuild. */
  migrationsHash: string;
  builtAt: string;
  buildSeconds: number;
  sizes: Sizes;
  accounts: KnownAccounts;
};

export type TwoYearTemplate = { name: string; url: string; meta: TemplateMeta; reused: boolean };

export async function readTemplateMeta(adminUrl: string, name: string): Promise<TemplateMeta | null> {
  const rows = await withClient(adminUrl, (admin) =>
    admin.query<{ comment: string | null }>(`SELECT shobj_description(oid, 'pg_database') AS comment FROM pg_database WHERE datname = $1`, [name]),
  );
  const comment = rows.rows[0]?.comment;
  if (!comment) return null;
  try {
    const meta = JSON.parse(comment) as TemplateMeta;
    return meta.kind === 'two-year-shop' ? meta : null;
  } catch {
    return null;
  }
}

async function currentSource(scale: number) {
  const { migrationDirectories } = await readMigrationsList();
  return { generator: GENERATOR_VERSION, scale, migrations: migrationDirectories.map((d) => d.path), migrationsHash: await migrationsHash() };
}

/**
 * The template built from the current migrations at this scale: reused when its comment
 * says so, otherwise (or with `rebuild`) built again under a temporary name and renamed
 * into place when complete. One process builds at a time per name (an advisory lock); the
 * others wait and find it built.
 */
export async function ensureTwoYearTemplate(opts: {
  adminUrl: string;
  name?: string;
  scale?: number;
  rebuild?: boolean;
  jobs?: number;
  log?: Log;
}): Promise<TwoYearTemplate> {
  const name = opts.name ?? DEFAULT_TEMPLATE;
  const log = opts.log ?? (() => {});
  const source = await currentSource(opts.scale ?? 1);
  const url = withDatabaseName(opts.adminUrl, name);
  return withClient(opts.adminUrl, async (admin) => {
    await admin.query('SELECT pg_advisory_lock(hashtext($1))', [`two-year:${name}`]);
    try {
      const existing = await readTemplateMeta(opts.adminUrl, name);
      const matches =
        existing !== null &&
        existing.generator === source.generator &&
        existing.scale === source.scale &&
        existing.migrationsHash === source.migrationsHash &&
        JSON.stringify(existing.migrations) === JSON.stringify(source.migrations);
      if (matches && !opts.rebuild) return { name, url, meta: existing, reused: true };
      log(existing ? `Rebuilding ${name} (${opts.rebuild ? 'asked to' : 'built from another generator, migrations or scale'})` : `Building ${name}`);

      const building = `${name}_building`;
      await admin.query(`DROP DATABASE IF EXISTS ${quoteIdent(building)} WITH (FORCE)`);
      const buildingUrl = withDatabaseName(opts.adminUrl, building);
      const t0 = performance.now();
      const { applied } = await migrate(buildingUrl);
      log(`Migrated (${applied.length} migrations) in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
      const filled = await fillTwoYearShop(buildingUrl, { scale: source.scale, jobs: opts.jobs, log });
      log(describeFill(filled));
      const meta: TemplateMeta = {
        kind: 'two-year-shop',
        ...source,
        builtAt: new Date().toISOString(),
        buildSeconds: Math.round((performance.now() - t0) / 100) / 10,
        sizes: filled.sizes,
        accounts: filled.accounts,
      };
      await admin.query(`DROP DATABASE IF EXISTS ${quoteIdent(name)} WITH (FORCE)`);
      await admin.query(`ALTER DATABASE ${quoteIdent(building)} RENAME TO ${quoteIdent(name)}`);
      await admin.query(`COMMENT ON DATABASE ${quoteIdent(name)} IS ${admin.escapeLiteral(JSON.stringify(meta))}`);
      return { name, url, meta, reused: false };
    } finally {
      await admin.query('SELECT pg_advisory_unlock(hashtext($1))', [`two-year:${name}`]);
    }
  });
}

export type TwoYearClone = { name: string; url: string; meta: TemplateMeta; drop(): Promise<void> };

/**
 * A database of its own for one run, copied from the template. The few orders still
 * payable when the template was built are moved forward by its age, so their payment
 * windows and quotes are open again (the rest is history either way).
 */
export async function cloneTwoYear(opts: { adminUrl: string; template?: string; name?: string }): Promise<TwoYearClone> {
  const template = opts.template ?? DEFAULT_TEMPLATE;
  const name = opts.name ?? `${template}_run_${Date.now().toString(36)}_${randomBytes(3).toString('hex')}`;
  // Under the builders' lock: a template being rebuilt is copied once it is complete, and
  // the comment read is the one of what is copied.
  const meta = await withClient(opts.adminUrl, async (admin) => {
    await admin.query('SELECT pg_advisory_lock(hashtext($1))', [`two-year:${template}`]);
    try {
      const found = await readTemplateMeta(opts.adminUrl, template);
      if (!found) throw new Error(`There is no two-year template ${template}: build it with npm run bench:data`);
      // FILE_COPY: the default (WAL_LOG) would write all of it through the WAL again.
      await admin.query(`CREATE DATABASE ${quoteIdent(name)} TEMPLATE ${quoteIdent(template)} STRATEGY = FILE_COPY`);
      return found;
    } finally {
      await admin.query('SELECT pg_advisory_unlock(hashtext($1))', [`two-year:${template}`]);
    }
  });
  const url = withDatabaseName(opts.adminUrl, name);
  const drop = async () => {
    await withClient(opts.adminUrl, (admin) => admin.query(`DROP DATABASE IF EXISTS ${quoteIdent(name)} WITH (FORCE)`));
  };
  try {
    await withClient(url, (client) => freshenLiveOrders(client, new Date(meta.builtAt)));
  } catch (error) {
    await drop();
    throw error;
  }
  return { name, url, meta, drop };
}

async function freshenLiveOrders(client: pg.Client, builtAt: Date): Promise<void> {
  const age = Math.floor((Date.now() - builtAt.getTime()) / 1000);
  if (age < 60) return;
  const shift = `make_interval(secs => ${age})`;
  const live = `SELECT "id" FROM "Order" WHERE "status" IN ('PENDING_PAYMENT', 'UNDERPAID', 'VERIFYING')`;
  await client.query('BEGIN');
  await client.query(`UPDATE "Order" SET "createdAt" = "createdAt" + ${shift}, "updatedAt" = "updatedAt" + ${shift},
                        "paymentDeadline" = "paymentDeadline" + ${shift} WHERE "id" IN (${live})`);
  await client.query(`UPDATE "PaymentQuote" SET "createdAt" = "createdAt" + ${shift}, "expiresAt" = "expiresAt" + ${shift} WHERE "orderId" IN (${live})`);
  await client.query(`UPDATE "Payment" SET "createdAt" = "createdAt" + ${shift}, "updatedAt" = "updatedAt" + ${shift},
                        "seenPendingAt" = "seenPendingAt" + ${shift}, "blockTimestamp" = "blockTimestamp" + ${shift} WHERE "orderId" IN (${live})`);
  await client.query(`UPDATE "PaymentReport" SET "createdAt" = "createdAt" + ${shift} WHERE "orderId" IN (${live})`);
  await client.query('COMMIT');
}

export async function dropTwoYearDatabase(adminUrl: string, name: string): Promise<void> {
  await withClient(adminUrl, (admin) => admin.query(`DROP DATABASE IF EXISTS ${quoteIdent(name)} WITH (FORCE)`));
}
