import { createHash } from 'node:crypto';
import { mkdtemp, mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { diffCatalogs, readCatalog } from './catalog.ts';
import { snapshotPath } from './new-migration.ts';
import { withClient } from './postgres-admin.ts';
import { applyMigrations, diffSql, readMigrationsList, schemaPath } from './schema-engine.ts';
import { createTestDatabase, ensureTemplateDatabase, type TestDatabase } from './test-database.ts';

// Hand-written objects (x_...) exist only in the migrations; the engine's own table only
// where migrations were applied.
const ignored = (name: string) => name.startsWith('x_') || name === '_prisma_migrations';

const adminUrl = inject('postgresAdminUrl') ?? process.env.POSTGRES_ADMIN_URL ?? 'postgresql://postgres@127.0.0.1:5432/postgres';
const databases: TestDatabase[] = [];
let template: string;

async function newDatabase(from: string): Promise<TestDatabase> {
  const db = await createTestDatabase(adminUrl, from);
  databases.push(db);
  return db;
}

beforeAll(async () => {
  template = inject('templateDatabase') ?? (await ensureTemplateDatabase(adminUrl));
});

afterAll(async () => {
  await Promise.all(databases.map((db) => db.drop()));
});

describe('schema.prisma and prisma/migrations', () => {
  it('keep the snapshot new-migration diffs from equal to schema.prisma', async () => {
    const [schema, snapshot] = await Promise.all([readFile(schemaPath, 'utf8'), readFile(snapshotPath, 'utf8')]);
    expect(
      snapshot === schema,
      'prisma/migrations/schema.snapshot.prisma differs from prisma/schema.prisma: run `npm run db:migration:new -- <name>`',
    ).toBe(true);
  });

  it('describe the same database (no drift)', async () => {
    const fromMigrations = await newDatabase(template);
    const fromSchema = await newDatabase('template0');
    const sql = await diffSql('empty', { schemaText: await readFile(schemaPath, 'utf8') }, { serverUrl: adminUrl });
    await withClient(fromSchema.url, (client) => client.query(sql));

    const [migrated, declared] = await Promise.all([
      readCatalog(fromMigrations.url, { ignore: ignored }),
      readCatalog(fromSchema.url, { ignore: ignored }),
    ]);
    const drift = diffCatalogs(migrated, declared, { left: 'migrations', right: 'schema.prisma' });
    expect(
      drift,
      `prisma/migrations and prisma/schema.prisma disagree; add a migration with \`npm run db:migration:new -- <name>\`:\n  ${drift.join('\n  ')}\n`,
    ).toEqual([]);
    expect(migrated.size).toBeGreaterThan(50);
  });
});

describe('applyMigrations', () => {
  it('applies every migration once and records it as prisma migrate deploy does', async () => {
    const db = await newDatabase('template0');
    const folders = (await readMigrationsList()).migrationDirectories;

    expect((await applyMigrations(db.url)).applied).toEqual(folders.map((dir) => dir.path));
    expect((await applyMigrations(db.url)).applied).toEqual([]);

    const rows = await withClient(db.url, (client) =>
      client.query<{ migration_name: string; checksum: string; finished: boolean; applied_steps_count: number }>(
        'SELECT migration_name, checksum, finished_at IS NOT NULL AS finished, applied_steps_count FROM _prisma_migrations ORDER BY migration_name',
      ),
    );
    expect(rows.rows).toEqual(
      folders.map((dir) => ({
        migration_name: dir.path,
        checksum: createHash('sha256').update(dir.migrationFile.content.value).digest('hex'),
        finished: true,
        applied_steps_count: 1,
      })),
    );
  });

  it('runs each migration whole: a ; in a comment or string is fine, a failure leaves nothing half-applied', async () => {
    const db = await newDatabase('template0');
    const dir = await mkdtemp(path.join(tmpdir(), 'migrations-'));
    try {
      await writeFile(path.join(dir, 'migration_lock.toml'), 'provider = "postgresql"\n');
      await mkdir(path.join(dir, '20000101000000_first'));
      await writeFile(
        path.join(dir, '20000101000000_first', 'migration.sql'),
        `-- a comment; with a semicolon\nCREATE TABLE "a" ("id" INTEGER);\nCOMMENT ON TABLE "a" IS 'x; y';\n`,
      );
      await mkdir(path.join(dir, '20000102000000_broken'));
      await writeFile(
        path.join(dir, '20000102000000_broken', 'migration.sql'),
        'CREATE TABLE "b" ("id" INTEGER);\nCREATE TABLE "c" ("id" INTEGER REFERENCES "missing" ("id"));\n',
      );

      await expect(applyMigrations(db.url, { migrationsDir: dir })).rejects.toThrow(/missing/);

      const state = await withClient(db.url, async (client) => ({
        comment: (await client.query(`SELECT obj_description('"a"'::regclass) AS c`)).rows[0]?.c,
        b: (await client.query(`SELECT to_regclass('"b"') AS t`)).rows[0]?.t,
        history: (await client.query('SELECT migration_name, finished_at IS NOT NULL AS finished FROM _prisma_migrations ORDER BY 1')).rows,
      }));
      expect(state).toEqual({
        comment: 'x; y',
        b: null,
        history: [
          { migration_name: '20000101000000_first', finished: true },
          { migration_name: '20000102000000_broken', finished: false },
        ],
      });
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});

describe('hand-written constraints (x_)', () => {
  let client: pg.Client;

  beforeAll(async () => {
    const db = await newDatabase(template);
    client = new pg.Client({ connectionString: db.url });
    await client.connect();
  });

  afterAll(async () => {
    await client?.end();
  });

  const insertProduct = (values: { countInStock?: number; price?: string; dailyCredit?: string; rating?: string }) =>
    client.query(
      `INSERT INTO "Product" ("id", "name", "image", "description", "price", "countInStock", "dailyCredit", "rating", "updatedAt")
       VALUES (gen_random_uuid(), 'Package', '/p.png', 'A package', $1, $2, $3, $4, now()) RETURNING "id"`,
      [values.price ?? '10.00', values.countInStock ?? 5, values.dailyCredit ?? '1.00', values.rating ?? '4.50'],
    );

  const insertUser = (email: string, balances: { active?: string; passive?: string } = {}) =>
    client.query<{ id: string }>(
      `INSERT INTO "User" ("id", "name", "email", "passwordHash", "referralCode", "activeBalance", "passiveBalance", "updatedAt")
       VALUES (gen_random_uuid(), 'Someone', $1, 'hash', substr(md5(random()::text), 1, 12), $2, $3, now()) RETURNING "id"`,
      [email, balances.active ?? '0', balances.passive ?? '0'],
    );

  const insertOrder = (userId: string, paymentTag: number | null) =>
    client.query<{ id: string }>(
      `INSERT INTO "Order" ("id", "userId", "itemsPrice", "totalPrice", "paymentTag", "updatedAt")
       VALUES (gen_random_uuid(), $1, 10, 10, $2, now()) RETURNING "id"`,
      [userId, paymentTag],
    );

  it('accept valid rows', async () => {
    await expect(insertProduct({})).resolves.toMatchObject({ rowCount: 1 });
    await expect(insertUser('valid@example.com')).resolves.toMatchObject({ rowCount: 1 });
  });

  it('refuse negative stock, price and daily credit, and a rating outside 0..5', async () => {
    await expect(insertProduct({ countInStock: -1 })).rejects.toMatchObject({ constraint: 'x_product_stock_nonneg' });
    await expect(insertProduct({ price: '-0.01' })).rejects.toMatchObject({ constraint: 'x_product_price_nonneg' });
    await expect(insertProduct({ dailyCredit: '-1' })).rejects.toMatchObject({ constraint: 'x_product_daily_credit_nonneg' });
    await expect(insertProduct({ rating: '5.01' })).rejects.toMatchObject({ constraint: 'x_product_rating_range' });
  });

  it('refuse two users whose emails differ only in case', async () => {
    await insertUser('Case@Example.com');
    await expect(insertUser('case@example.COM')).rejects.toMatchObject({ constraint: 'x_user_email_lower' });
  });

  it('refuse non-positive cashouts and quantities, and a live payment tag used twice; a balance may go below zero (a reversal entry)', async () => {
    // The ledger's conditional update keeps ordinary changes from overdrawing; a reversal may.
    await expect(insertUser('neg@example.com', { passive: '-1' })).resolves.toBeTruthy();

    const user = (await insertUser('buyer@example.com')).rows[0]!.id;
    await expect(
      client.query(`INSERT INTO "CashoutRequest" ("id", "userId", "wallet", "amountUsd", "updatedAt") VALUES (gen_random_uuid(), $1, '0x0', 0, now())`, [user]),
    ).rejects.toMatchObject({ constraint: 'x_cashout_amount_pos' });

    const order = (await insertOrder(user, 1234)).rows[0]!.id;
    const product = (await insertProduct({})).rows[0]!.id as string;
    await expect(
      client.query(
        `INSERT INTO "OrderItem" ("id", "orderId", "productId", "name", "image", "price", "qty", "dailyCredit", "durationDays")
         VALUES (gen_random_uuid(), $1, $2, 'Package', '/p.png', 10, 0, 1, 30)`,
        [order, product],
      ),
    ).rejects.toMatchObject({ constraint: 'x_order_item_qty_pos' });

    await expect(insertOrder(user, 1234)).rejects.toMatchObject({ constraint: 'x_order_payment_tag_live' });
    // Settled orders release their tag: any number may hold none.
    await insertOrder(user, null);
    await expect(insertOrder(user, null)).resolves.toMatchObject({ rowCount: 1 });
  });
});
