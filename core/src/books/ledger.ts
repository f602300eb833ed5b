import { Prisma, type Db, type LedgerAccount, type LedgerKind } from '../infra/db.ts';

/**
 * The ledger: the only way a balance changes. Each operation writes its entries and
 * the balance update in one transaction, keyed by idempotency keys: applying the same
 * operation twice changes nothing the second time. An operation never takes a balance
 * below zero (the update is conditional), except a reversal (`allowNegative`): a
 * referral reward taken back after its payment left the chain happens even when the
 * referrer already spent it, and later credit repays the difference.
 */

export type LedgerEntryInput = {
  userId: string;
  account: LedgerAccount;
  /** Signed amount, at most 2 decimals. */
  amount: Prisma.Decimal | string;
  kind: LedgerKind;
  reference?: string;
  idempotencyKey: string;
};

export type Tx = Prisma.TransactionClient;

export class InsufficientBalanceError extends Error {
  override name = 'InsufficientBalanceError';
}

const balanceColumn = { ACTIVE: 'activeBalance', PASSIVE: 'passiveBalance' } as const;

const TYPED_REFERENCE = /^(order|cashout):([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})(?::|$)/;

/**
 * The order or cashout an entry's reference names ('order:<id>', 'order:<id>:reorg',
 * 'cashout:<id>:rejected'), as the typed columns the reconciler joins on. The one place
 * they are derived: every entry is written through postEntries.
 */
export function typedReference(reference: string | undefined): { orderId: string | null; cashoutId: string | null } {
  const m = reference ? TYPED_REFERENCE.exec(reference) : null;
  return { orderId: m?.[1] === 'order' ? m[2]! : null, cashoutId: m?.[1] === 'cashout' ? m[2]! : null };
}

/**
 * Posts entries inside the caller's transaction. Returns false (and changes nothing)
 * when the first entry's idempotency key was already used: an operation's entries are
 * written together, so the first key stands for the whole operation.
 */
export async function postEntries(tx: Tx, entries: LedgerEntryInput[], opts: { allowNegative?: boolean } = {}): Promise<boolean> {
  if (entries.length === 0) return true;
  const first = entries[0] as LedgerEntryInput;
  const typed = typedReference(first.reference);
  const inserted = await tx.$queryRaw<{ id: string }[]>`
    INSERT INTO "LedgerEntry" ("id", "userId", "account", "amount", "kind", "reference", "idempotencyKey", "orderId", "cashoutId")
    VALUES (gen_random_uuid(), ${first.userId}::uuid, ${first.account}::"LedgerAccount", ${new Prisma.Decimal(first.amount)}::numeric,
            ${first.kind}::"LedgerKind", ${first.reference ?? null}, ${first.idempotencyKey}, ${typed.orderId}::uuid, ${typed.cashoutId}::uuid)
    ON CONFLICT ("idempotencyKey") DO NOTHING
    RETURNING "id"`;
  if (inserted.length === 0) return false;
  if (entries.length > 1) {
    await tx.ledgerEntry.createMany({
      data: entries.slice(1).map((e) => ({ ...e, amount: new Prisma.Decimal(e.amount), reference: e.reference ?? null, ...typedReference(e.reference) })),
    });
  }
  // One conditional update per (user, account), so an operation cannot overdraw.
  const deltas = new Map<string, { userId: string; account: LedgerAccount; amount: Prisma.Decimal }>();
  for (const e of entries) {
    const key = `${e.userId}/${e.account}`;
    const current = deltas.get(key);
    const amount = new Prisma.Decimal(e.amount);
    deltas.set(key, { userId: e.userId, account: e.account, amount: current ? current.amount.plus(amount) : amount });
  }
  for (const { userId, account, amount } of deltas.values()) {
    if (amount.isZero()) continue;
    const column = Prisma.raw(`"${balanceColumn[account]}"`);
    // Only a debit can overdraw: a credit to a balance below zero (left by a reversal) repays it.
    const floor = opts.allowNegative || amount.gte(0) ? Prisma.sql`TRUE` : Prisma.sql`${column} + ${amount}::numeric >= 0`;
    const updated = await tx.$executeRaw`
      UPDATE "User" SET ${column} = ${column} + ${amount}::numeric, "updatedAt" = now()
      WHERE "id" = ${userId}::uuid AND ${floor}`;
    if (updated !== 1) throw new InsufficientBalanceError(`balance too low for ${account.toLowerCase()} change of ${amount.toFixed(2)}`);
  }
  return true;
}

/**
 * Posts many credits inside the caller's transaction, each its own operation under its
 * own idempotency key (daily credit: one entry per item and day): one insert for all of
 * them, then one balance update per user for what was inserted. Keys already used are
 * skipped, as postEntries skips an operation. Only credits: a batch cannot overdraw.
 * The users are locked first, in id order, so two batches never wait on each other in
 * a cycle (the caller must hold no user's row lock before it). Returns the number of
 * entries written and their total.
 */
export async function postCredits(tx: Tx, entries: LedgerEntryInput[]): Promise<{ posted: number; amount: Prisma.Decimal }> {
  if (entries.length === 0) return { posted: 0, amount: new Prisma.Decimal(0) };
  const amounts = entries.map((e) => new Prisma.Decimal(e.amount));
  if (amounts.some((a) => !a.gt(0))) throw new Error('postCredits posts credits only');
  const typed = entries.map((e) => typedReference(e.reference));
  const users = [...new Set(entries.map((e) => e.userId))].sort();
  await tx.$queryRaw`SELECT 1 FROM "User" WHERE "id" = ANY(${users}::uuid[]) ORDER BY "id" FOR NO KEY UPDATE`;
  const [row] = await tx.$queryRaw<{ posted: bigint; amount: Prisma.Decimal; wanted: bigint; updated: bigint }[]>`
    WITH input AS (
      SELECT * FROM unnest(${entries.map((e) => e.userId)}::uuid[], ${entries.map((e) => e.account)}::text[], ${amounts.map((a) => a.toFixed())}::numeric[],
                           ${entries.map((e) => e.kind)}::text[], ${entries.map((e) => e.reference ?? null)}::text[], ${entries.map((e) => e.idempotencyKey)}::text[],
                           ${typed.map((t) => t.orderId)}::uuid[], ${typed.map((t) => t.cashoutId)}::uuid[])
        AS t("userId", "account", "amount", "kind", "reference", "key", "orderId", "cashoutId")
    ), ins AS (
      INSERT INTO "LedgerEntry" ("id", "userId", "account", "amount", "kind", "reference", "idempotencyKey", "orderId", "cashoutId")
      SELECT gen_random_uuid(), "userId", "account"::"LedgerAccount", "amount", "kind"::"LedgerKind", "reference", "key", "orderId", "cashoutId" FROM input
      ON CONFLICT ("idempotencyKey") DO NOTHING
      RETURNING "userId", "account", "amount"
    ), sums AS (
      SELECT "userId", COALESCE(SUM("amount") FILTER (WHERE "account" = 'ACTIVE'), 0) AS active, COALESCE(SUM("amount") FILTER (WHERE "account" = 'PASSIVE'), 0) AS passive
      FROM ins GROUP BY "userId"
    ), upd AS (
      UPDATE "User" u SET "activeBalance" = u."activeBalance" + s.active, "passiveBalance" = u."passiveBalance" + s.passive, "updatedAt" = now()
      FROM sums s WHERE u."id" = s."userId"
      RETURNING u."id"
    )
    SELECT (SELECT COUNT(*) FROM ins) AS posted, (SELECT COALESCE(SUM("amount"), 0) FROM ins) AS amount,
           (SELECT COUNT(*) FROM sums) AS wanted, (SELECT COUNT(*) FROM upd) AS updated`;
  if (!row || row.wanted !== row.updated) throw new Error('postCredits: a credited user is missing');
  return { posted: Number(row.posted), amount: new Prisma.Decimal(row.amount) };
}

/** Posts entries in a transaction of their own. */
export async function applyLedger(db: Db, entries: LedgerEntryInput[]): Promise<boolean> {
  return db.$transaction((tx) => postEntries(tx, entries));
}

/** Sums of the ledger per account, for checks and reports. */
export async function ledgerSums(db: Db | Tx, userId: string): Promise<{ active: Prisma.Decimal; passive: Prisma.Decimal }> {
  const rows = await db.ledgerEntry.groupBy({ by: ['account'], where: { userId }, _sum: { amount: true } });
  const sum = (account: LedgerAccount) => rows.find((r) => r.account === account)?._sum.amount ?? new Prisma.Decimal(0);
  return { active: sum('ACTIVE'), passive: sum('PASSIVE') };
}
