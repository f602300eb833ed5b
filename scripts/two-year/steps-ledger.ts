// The ledger, written the way core/src/books/ledger.ts keys it: a daily credit per line of each
// paid order for every UTC midnight of its term (core/src/books/daily-credit.ts), the referrer's
// reward when an order is paid (a few orders paid, reorganised away and paid again),
// admins' adjustments, cashouts (and rejections) and exchanges. Entries that name an order
// or a cashout carry it in the typed columns too. Cashouts and exchanges take at most 80%
// of what a user was credited, so no balance ends below zero.
import type { Step } from './runner.ts';
import { ADMIN_N, BUYER_N, type Sizes } from './shape.ts';
import { DAY, type Timeline } from './scratch.ts';
import { PAYOUT_WALLET } from './steps-payments.ts';

/** Days of ledger written per statement: each statement's rows are sorted by time, so the table is in time order. */
const CHUNK_DAYS = 30;

const ENTRY_COLUMNS = `"id", "userId", "account", "amount", "kind", "reference", "idempotencyKey", "orderId", "cashoutId", "createdAt"`;

export function ledgerSteps(sizes: Sizes, t: Timeline): Step[] {
  const firstDay = Math.floor(t.opened / DAY);
  const lastDay = Math.floor(t.now / DAY);
  const chunks: Step[] = [];
  for (let a = firstDay; a <= lastDay; a += CHUNK_DAYS) {
    const b = Math.min(lastDay, a + CHUNK_DAYS - 1);
    chunks.push({
      name: `ledger ${new Date(a * DAY * 1000).toISOString().slice(0, 10)}`,
      table: 'LedgerEntry',
      after: ['plan credits', 'plan ledger extras', ...(chunks.length ? [chunks[chunks.length - 1]!.name] : [])],
      sql: `
        INSERT INTO "LedgerEntry" (${ENTRY_COLUMNS})
        SELECT * FROM (
          SELECT uid('credit', c.item_key * 128 + (d - c.first_day)), c.user_id, 'ACTIVE'::"LedgerAccount", c.per_day, 'DAILY_CREDIT'::"LedgerKind",
                 c.ref, 'daily:' || c.item_id || ':' || (DATE '1970-01-01' + d)::text, c.order_id, NULL::uuid,
                 ts(least(d::float8 * ${DAY} + 300 + c.item_key % 900, ${t.now})) AS at
          FROM plan_credit c CROSS JOIN LATERAL generate_series(greatest(c.first_day, ${a}), least(c.last_day, ${b})) d
          WHERE c.first_day <= ${b} AND c.last_day >= ${a}
          UNION ALL
          SELECT e.id, e.user_id, e.account::"LedgerAccount", e.amount, e.kind::"LedgerKind", e.ref, e.key, e.order_id, NULL, ts(e.at)
          FROM plan_extra e WHERE e.at >= ${a * DAY} AND e.at < ${(b + 1) * DAY}
        ) x ORDER BY x.at`,
    });
  }
  const lastChunk = chunks[chunks.length - 1]!.name;

  return [
    {
      // Each line of a paid order: credited at every UTC midnight after it was paid, up to
      // the end of its term or now (creditDays in core/src/books/daily-credit.ts).
      name: 'plan credits',
      after: ['plan orders'],
      sql: `
        CREATE UNLOGGED TABLE plan_credit AS
        SELECT o.n::bigint * 4 + j AS item_key, uid('item', o.n * 4 + j) AS item_id, o.id AS order_id, o.user_id,
               p.daily * item_q(o.n, j) AS per_day, floor(o.paid / ${DAY})::int + 1 AS first_day,
               floor(least(${t.now}, o.paid + p.duration * ${DAY}) / ${DAY})::int AS last_day, 'order:' || o.id AS ref
        FROM plan_order o CROSS JOIN LATERAL generate_series(1, o.k) j JOIN plan_product p ON p.n = item_p(o.n, j)
        WHERE o.status = 'PAID'`,
    },
    {
      name: 'plan ledger extras',
      after: ['plan orders', 'plan users'],
      sql: `
        CREATE UNLOGGED TABLE plan_extra AS
        SELECT uid('reward', o.n * 4 + r.i) AS id, uid('user', u.referrer_n) AS user_id, 'ACTIVE' AS account, r.amount, r.kind, r.ref, r.key,
               o.id AS order_id, o.paid - r.before AS at
        FROM plan_order o JOIN plan_user u ON u.n = o.user_n
        CROSS JOIN LATERAL (SELECT round(o.total * 0.10, 2) AS reward) w
        CROSS JOIN LATERAL (
          SELECT 1 AS i, w.reward AS amount, 'REFERRAL_REWARD' AS kind, 'order:' || o.id AS ref, 'referral:' || o.id || ':v1' AS key,
                 CASE WHEN o.reorg THEN 900 ELSE 0 END AS before
          UNION ALL
          SELECT 2, -w.reward, 'REFERRAL_REVERSAL', 'order:' || o.id || ':reorg', 'referral-reversal:' || o.id || ':v1', 450 WHERE o.reorg
          UNION ALL
          SELECT 3, w.reward, 'REFERRAL_REWARD', 'order:' || o.id, 'referral:' || o.id || ':v2', 0 WHERE o.reorg
        ) r
        WHERE o.status = 'PAID' AND u.referrer_n IS NOT NULL
        UNION ALL
        SELECT uid('adjust', m), uid('user', a.n), a.account, round((1 + 99 * rnd(m, 72))::numeric, 2), 'ADMIN_ADJUSTMENT',
               'admin:' || uid('user', ${ADMIN_N}), 'admin-adjust:' || uid('adjust', m) || ':' || a.account, NULL,
               floor(user_created(a.n) + rnd(m, 73) * (${t.now - 60} - user_created(a.n)))
        FROM generate_series(1, ${sizes.adjustments}) m
        CROSS JOIN LATERAL (SELECT 3 + floor(rnd(m, 74) * ${sizes.users - 3})::bigint AS n,
                                   CASE WHEN rnd(m, 75) < 0.7 THEN 'ACTIVE' ELSE 'PASSIVE' END AS account) a`,
    },
    ...chunks,
    {
      // Users with enough credit to cash out or exchange, numbered for picking.
      name: 'plan earners',
      after: ['plan credits', 'plan ledger extras'],
      sql: `
        CREATE UNLOGGED TABLE plan_earner AS
        SELECT row_number() OVER (ORDER BY u.n) AS k, u.n AS user_n, e.user_id, e.earned
        FROM (SELECT x.user_id, sum(x.amount) AS earned
              FROM (SELECT c.user_id, c.per_day * (c.last_day - c.first_day + 1) AS amount FROM plan_credit c WHERE c.last_day >= c.first_day
                    UNION ALL
                    SELECT e.user_id, e.amount FROM plan_extra e WHERE e.account = 'ACTIVE') x
              GROUP BY x.user_id) e
        JOIN plan_user u ON u.id = e.user_id
        WHERE e.earned >= 500 AND NOT u.deleted`,
    },
    {
      // Cashout 1 is the known buyer's, still REQUESTED a year on; the others are spread
      // over the two years, a few of them still open.
      name: 'plan cashouts',
      after: ['plan earners'],
      sql: `
        CREATE UNLOGGED TABLE plan_cashout AS
        SELECT c.n, uid('cashout', c.n) AS id, e.user_id, e.user_n, c.status, c.created, eth_usd(c.created) AS eth,
               greatest(0.01, round(e.earned * 0.6 * c.w / sum(c.w) OVER (PARTITION BY e.user_id), 2)) AS amount,
               c.created + floor(least(${DAY}, (${t.now} - c.created) * 0.5) * (0.05 + 0.95 * rnd(c.n, 64))) AS done_at,
               row_number() OVER (ORDER BY c.created, c.n) AS nonce
        FROM (SELECT m AS n, (0.5 + rnd(m, 61))::numeric AS w,
                     CASE WHEN m = 1 THEN (SELECT k FROM plan_earner WHERE user_n = ${BUYER_N})
                          ELSE 1 + floor(rnd(m, 60) * (SELECT count(*) FROM plan_earner))::bigint END AS ek,
                     CASE WHEN m = 1 THEN ${t.now - 365 * DAY}
                          ELSE floor(${t.ordersFrom + 30 * DAY} + sqrt(rnd(m, 62)) * ${t.now - 7200 - t.ordersFrom - 30 * DAY}) END AS created,
                     CASE WHEN m = 1 OR rnd(m, 63) < 0.025 THEN 'REQUESTED' WHEN rnd(m, 63) < 0.035 THEN 'NOTIFIED'
                          WHEN rnd(m, 63) < 0.075 THEN 'REJECTED' ELSE 'PAID' END AS status
              FROM generate_series(1, ${sizes.cashouts}) m) c
        JOIN plan_earner e ON e.k = c.ek`,
    },
    {
      name: 'cashouts',
      table: 'CashoutRequest',
      after: ['plan cashouts'],
      sql: `
        INSERT INTO "CashoutRequest" ("id", "userId", "wallet", "amountUsd", "ethUsd", "status", "payoutTxHash", "paidAt", "paidNoticeSentAt",
                                      "createdAt", "updatedAt")
        SELECT c.id, c.user_id, addr('wallet', c.user_n), c.amount, c.eth, c.status::"CashoutStatus",
               CASE WHEN c.status = 'PAID' THEN hash66('cashout-payout', c.n) END,
               CASE WHEN c.status = 'PAID' THEN ts(c.done_at) END, CASE WHEN c.status = 'PAID' THEN ts(c.done_at + 30) END,
               ts(c.created), ts(CASE c.status WHEN 'REQUESTED' THEN c.created WHEN 'NOTIFIED' THEN c.created + 60 ELSE c.done_at END)
        FROM plan_cashout c ORDER BY c.created`,
    },
    {
      name: 'cashout payout checks',
      table: 'PayoutCheck',
      after: ['plan cashouts'],
      sql: `
        INSERT INTO "PayoutCheck" ("id", "asset", "txHash", "cashoutId", "wallet", "expectedAmount", "status", "reason", "fromAddress", "nonce", "toAddress",
                                   "deliveredAmount", "blockNumber", "blockHash", "requestedById", "createdAt", "updatedAt")
        SELECT uid('cashout-check', c.n * 2 + x.i), 'ETH'::"Asset", x.tx, c.id, addr('wallet', c.user_n), x.wei, x.status::"PayoutCheckStatus", x.reason,
               '${PAYOUT_WALLET}', c.nonce, addr('wallet', c.user_n), x.delivered, x.block, hash66('block', x.block),
               uid('user', ${ADMIN_N}), ts(x.at - 600), ts(x.at)
        FROM plan_cashout c
        CROSS JOIN LATERAL (SELECT trunc(c.amount * 1000000000000000000 / c.eth) AS wei) w
        CROSS JOIN LATERAL (
          -- A payout sent with too low a fee, replaced: refused, and the next one accepted.
          SELECT 1 AS i, hash66('cashout-dropped', c.n) AS tx, w.wei, 'REFUSED' AS status,
                 'Dropped: its nonce was used by another transaction' AS reason, NULL::numeric AS delivered, NULL::bigint AS block, c.done_at - 3000 AS at
          WHERE rnd(c.n, 65) < 0.02
          UNION ALL
          SELECT 0, hash66('cashout-payout', c.n), w.wei, 'ACCEPTED', NULL, w.wei, block_at(c.done_at - 120), c.done_at
        ) x
        WHERE c.status = 'PAID'
        ORDER BY x.at`,
    },
    {
      name: 'cashout entries',
      table: 'LedgerEntry',
      after: ['plan cashouts', lastChunk],
      sql: `
        INSERT INTO "LedgerEntry" (${ENTRY_COLUMNS})
        SELECT uid('cashout-entry', c.n * 2), c.user_id, 'ACTIVE'::"LedgerAccount", -c.amount, 'CASHOUT'::"LedgerKind", 'cashout:' || c.id, 'cashout:' || c.id, NULL::uuid, c.id, ts(c.created)
        FROM plan_cashout c
        UNION ALL
        SELECT uid('cashout-entry', c.n * 2 + 1), c.user_id, 'ACTIVE', c.amount, 'CASHOUT', 'cashout:' || c.id || ':rejected',
               'cashout-reject:' || c.id, NULL, c.id, ts(c.done_at)
        FROM plan_cashout c WHERE c.status = 'REJECTED'`,
    },
    {
      name: 'exchanges',
      table: 'LedgerEntry',
      after: ['plan earners', 'cashout entries'],
      sql: `
        INSERT INTO "LedgerEntry" (${ENTRY_COLUMNS})
        SELECT uid('exchange-entry', x.m * 2 + s.i), x.user_id, s.account::"LedgerAccount", s.sign * x.amount, 'EXCHANGE', x.ref,
               x.ref || s.suffix, NULL, NULL, ts(x.at)
        FROM (SELECT m, e.user_id, 'exchange:' || uid('exchange', m) AS ref, m_at.at,
                     greatest(0.01, round(e.earned * 0.2 * (0.5 + rnd(m, 66))::numeric / sum((0.5 + rnd(m, 66))::numeric) OVER (PARTITION BY e.user_id), 2)) AS amount
              FROM generate_series(1, ${sizes.exchanges}) m
              CROSS JOIN LATERAL (SELECT floor(${t.ordersFrom + 30 * DAY} + sqrt(rnd(m, 67)) * ${t.now - 3600 - t.ordersFrom - 30 * DAY}) AS at) m_at
              JOIN plan_earner e ON e.k = 1 + floor(rnd(m, 68) * (SELECT count(*) FROM plan_earner))::bigint) x
        CROSS JOIN LATERAL (SELECT 0 AS i, 'ACTIVE' AS account, -1 AS sign, ':out' AS suffix UNION ALL SELECT 1, 'PASSIVE', 1, ':in') s
        ORDER BY x.at, s.i`,
    },
    { name: 'ledger', after: [lastChunk, 'cashout entries', 'exchanges'], sql: [] },
  ];
}
