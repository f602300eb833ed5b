// Users, packages, orders and what each order holds: the plan tables every later step reads
// (one row per user, package and order, with the times and amounts decided once), and the
// shop's own tables filled from them.
import type { Step } from './runner.ts';
import { ADMIN_N, BUYER_N, KNOWN_EMAILS, type Sizes } from './shape.ts';
import { DAY, type Timeline } from './scratch.ts';

export const LIVE_STATUSES = `('PENDING_PAYMENT', 'UNDERPAID', 'VERIFYING')`;
/** Orders whose stock stays taken: paid, or still payable. */
export const HOLDING_STATUSES = `('PAID', 'PENDING_PAYMENT', 'UNDERPAID', 'VERIFYING')`;
export const RECEIVING_ADDRESS = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8';

export function orderSteps(sizes: Sizes, t: Timeline): Step[] {
  const { users: U, packages: P, orders: O, liveOrders: L, bigBuyerOrders: B } = sizes;
  return [
    {
      name: 'plan users',
      sql: [
        `CREATE UNLOGGED TABLE plan_user AS
         SELECT n::int AS n, uid('user', n) AS id, referrer_of(n)::int AS referrer_n, user_created(n) AS created,
                (n > 3 AND rnd(n, 43) < 0.005) AS deleted
         FROM generate_series(1, ${U}) n`,
        `ALTER TABLE plan_user ADD PRIMARY KEY (n)`,
      ],
    },
    {
      name: 'plan packages',
      sql: [
        `CREATE UNLOGGED TABLE plan_product AS
         SELECT n::int AS n, uid('product', n) AS id, price, duration,
                greatest(0.01, round(price * (1.05 + 0.25 * rnd(n, 23))::numeric / duration, 2)) AS daily,
                ${t.opened} + n::float8 / ${P} * ${10 * DAY} AS created,
                CASE WHEN rnd(n, 24) < 0.05 THEN 0 ELSE floor(rnd(n, 25) * 1000)::int END AS final_stock,
                rnd(n, 26) < 0.01 AS deleted
         FROM (SELECT n, round((5 + 1995 * power(rnd(n, 21), 2))::numeric, 0) - 0.01 AS price,
                      (ARRAY[7, 14, 30, 30, 30, 60, 60])[1 + floor(rnd(n, 22) * 7)::int] AS duration
               FROM generate_series(1, ${P}) n) s`,
        `ALTER TABLE plan_product ADD PRIMARY KEY (n)`,
      ],
    },
    {
      // One row per order with everything later steps need: its buyer, status, times and
      // total. Orders grow with the square of time; the last L are still payable.
      name: 'plan orders',
      after: ['plan packages'],
      sql: [
        `CREATE UNLOGGED TABLE plan_order AS
         SELECT c.n, uid('order', c.n) AS id, c.user_n, uid('user', c.user_n) AS user_id, c.status, c.created,
                c.created + 3600 AS deadline, c.k, t.total, t.maxdur, c.parts, c.t1,
                CASE WHEN c.status = 'PAID' THEN CASE WHEN c.parts = 2 THEN c.t1 + 60 + floor(rnd(c.n, 6) * 770) ELSE c.t1 END END AS paid,
                CASE c.status WHEN 'CANCELLED' THEN c.created + 60 + floor(rnd(c.n, 7) * 1700)
                              WHEN 'LATE' THEN c.created + 4200 + floor(rnd(c.n, 7) * least(80000, ${t.now} - c.created - 4800))
                              WHEN 'EXPIRED' THEN c.created + 3630 END AS closed,
                CASE WHEN c.parts = 2 OR c.status = 'UNDERPAID' THEN round(t.total * (0.3 + 0.5 * rnd(c.n, 8))::numeric, 2)
                     WHEN c.parts = 1 THEN t.total END AS usd1,
                c.status = 'PAID' AND rnd(c.n, 71) < 0.002 AS reorg,
                1 + (c.n::bigint * 7919) % 999999999 AS tag,
                eth_usd(c.created) AS eth
         FROM (
           SELECT b.*,
                  CASE WHEN b.status = 'PAID' AND rnd(b.n, 5) < 0.2 THEN 2 WHEN b.status IN ('PAID', 'UNDERPAID') THEN 1 ELSE 0 END AS parts,
                  b.created + 30 + floor(rnd(b.n, 4) * CASE WHEN b.live THEN ${t.now} - b.created - 60 ELSE 770 END) AS t1
           FROM (
             SELECT a.n, a.live, a.created, item_k(a.n) AS k,
                    CASE WHEN a.n <= ${B} THEN ${BUYER_N} ELSE 3 + floor(rnd(a.n, 2) * (users_by(a.created) - 2))::bigint END AS user_n,
                    CASE WHEN a.live THEN (CASE a.n % 6 WHEN 4 THEN 'UNDERPAID' WHEN 5 THEN 'VERIFYING' ELSE 'PENDING_PAYMENT' END)
                         WHEN rnd(a.n, 3) < 0.70 THEN 'EXPIRED' WHEN rnd(a.n, 3) < 0.95 THEN 'PAID'
                         WHEN rnd(a.n, 3) < 0.983 THEN 'CANCELLED' ELSE 'LATE' END AS status
             FROM (SELECT n, n > ${O - L} AS live,
                          floor(CASE WHEN n > ${O - L} THEN ${t.now - 60} - rnd(n, 1) * 2700
                                     ELSE ${t.ordersFrom} + sqrt(rnd(n, 1)) * ${t.now - 7200 - t.ordersFrom} END) AS created
                   FROM generate_series(1, ${O}) n) a
           ) b
         ) c
         CROSS JOIN LATERAL (
           SELECT sum(p.price * item_q(c.n, j)) AS total, max(p.duration) AS maxdur
           FROM generate_series(1, c.k) j JOIN plan_product p ON p.n = item_p(c.n, j)
         ) t`,
        `ALTER TABLE plan_order ADD PRIMARY KEY (n)`,
      ],
    },
    {
      name: 'order lines',
      table: 'OrderItem',
      after: ['plan orders'],
      sql: `
        INSERT INTO "OrderItem" ("id", "orderId", "productId", "name", "image", "price", "qty", "dailyCredit", "durationDays", "creditEndsAt")
        SELECT uid('item', o.n * 4 + j), o.id, p.id, p.name, p.image, p.price, item_q(o.n, j), p.daily, p.duration,
               CASE WHEN o.status = 'PAID' THEN ts(o.paid + p.duration * ${DAY}) END
        FROM plan_order o CROSS JOIN LATERAL generate_series(1, o.k) j
        JOIN (SELECT pp.*, ${packageName('pp.n')} AS name, ${packageImage('pp.n')} AS image FROM plan_product pp) p ON p.n = item_p(o.n, j)`,
    },
    {
      name: 'orders',
      table: 'Order',
      after: ['plan orders'],
      sql: `
        INSERT INTO "Order" ("id", "userId", "status", "itemsPrice", "totalPrice", "paymentTag", "stockReserved", "createdAt", "updatedAt",
                             "placedAtBlock", "paymentDeadline", "paidAt", "expiresAt", "paidUsd", "paidVersion", "receiptSentAt", "cancelledAt")
        SELECT o.id, o.user_id, o.status::"OrderStatus", o.total, o.total,
               CASE WHEN o.status IN ${LIVE_STATUSES} THEN o.tag END,
               o.status IN ${HOLDING_STATUSES},
               ts(o.created), ts(coalesce(o.paid, o.closed, CASE WHEN o.status IN ('UNDERPAID', 'VERIFYING') THEN o.t1 END, o.created)),
               block_at(o.created), ts(o.deadline), ts(o.paid), ts(o.paid + o.maxdur * ${DAY}),
               CASE o.status WHEN 'PAID' THEN o.total WHEN 'UNDERPAID' THEN o.usd1 ELSE 0 END,
               CASE WHEN o.status <> 'PAID' THEN 0 WHEN o.reorg THEN 2 ELSE 1 END,
               ts(o.paid + 60),
               CASE WHEN o.status = 'CANCELLED' THEN ts(o.closed) END
        FROM plan_order o ORDER BY o.created`,
    },
    {
      // Every order got a quote when placed; one paid in two transfers, or underpaid, a
      // second one for the rest (same tag).
      name: 'quotes',
      table: 'PaymentQuote',
      after: ['plan orders'],
      sql: `
        INSERT INTO "PaymentQuote" ("id", "orderId", "unitUsd", "usdAmount", "asset", "amount", "receivingAddress", "chainId", "createdAt", "expiresAt")
        SELECT uid('quote', o.n * 2 + q.j), o.id, q.eth, q.usd, 'ETH'::"Asset", wei_for(q.usd, q.eth) + o.tag * 1000, '${RECEIVING_ADDRESS}', 1, ts(q.at), ts(q.at + 900)
        FROM plan_order o
        CROSS JOIN LATERAL (
          SELECT 1 AS j, o.eth, o.total AS usd, o.created AS at
          UNION ALL
          SELECT 2, eth_usd(o.t1 + 30), o.total - o.usd1, o.t1 + 30 WHERE o.parts = 2 OR o.status = 'UNDERPAID'
        ) q
        ORDER BY q.at`,
    },
    {
      // Each line took its stock when placed and gave it back when its order expired, was
      // cancelled or went LATE (unpaid); a package was stocked with what orders still hold
      // plus what is left, partly when created and partly by an admin later.
      name: 'stock movements',
      table: 'StockMovement',
      after: ['plan orders'],
      sql: `
        INSERT INTO "StockMovement" ("id", "productId", "orderId", "kind", "delta", "reference", "createdAt")
        SELECT uid('move', (o.n * 4 + j) * 2), uid('product', item_p(o.n, j)), o.id, 'RESERVED'::"StockMovementKind", -item_q(o.n, j), NULL, ts(o.created)
        FROM plan_order o CROSS JOIN LATERAL generate_series(1, o.k) j
        UNION ALL
        SELECT uid('move', (o.n * 4 + j) * 2 + 1), uid('product', item_p(o.n, j)), o.id, 'RELEASED'::"StockMovementKind", item_q(o.n, j), NULL,
               ts(CASE WHEN o.status = 'CANCELLED' THEN o.closed ELSE o.deadline + 30 END)
        FROM plan_order o CROSS JOIN LATERAL generate_series(1, o.k) j
        WHERE o.status NOT IN ${HOLDING_STATUSES}
        UNION ALL
        SELECT uid('stocked', p.n * 2 + s.j), p.id, NULL, 'STOCKED'::"StockMovementKind", s.delta, s.reference, ts(s.at)
        FROM (SELECT p.*, p.final_stock + coalesce(h.held, 0) AS stocked FROM plan_product p
              LEFT JOIN (SELECT item_p(o.n, j) AS n, sum(item_q(o.n, j)) AS held
                         FROM plan_order o CROSS JOIN LATERAL generate_series(1, o.k) j
                         WHERE o.status IN ${HOLDING_STATUSES} GROUP BY 1) h ON h.n = p.n) p
        CROSS JOIN LATERAL (
          SELECT 0 AS j, p.stocked - floor(p.stocked * 0.3)::int AS delta, 'created' AS reference, p.created AS at
          UNION ALL
          SELECT 1, floor(p.stocked * 0.3)::int, 'admin:' || uid('user', ${ADMIN_N}), p.created + rnd(p.n, 27) * ${300 * DAY}
          WHERE floor(p.stocked * 0.3) > 0
        ) s`,
    },
    {
      name: 'packages',
      table: 'Product',
      after: ['plan packages'],
      sql: `
        INSERT INTO "Product" ("id", "name", "image", "description", "price", "rating", "numReviews", "countInStock", "dailyCredit",
                               "durationDays", "deletedAt", "createdAt", "updatedAt")
        SELECT p.id, ${packageName('p.n')}, ${packageImage('p.n')},
               'A ' || p.duration || '-day package: ' || p.daily || ' USD of credit a day for each one bought.',
               p.price, round((2.5 + 2.5 * rnd(p.n, 28))::numeric, 2), floor(rnd(p.n, 29) * 400)::int, p.final_stock, p.daily,
               p.duration, CASE WHEN p.deleted THEN ts(${t.now} - rnd(p.n, 26) * ${5 * DAY}) END, ts(p.created), ts(p.created + rnd(p.n, 27) * ${300 * DAY})
        FROM plan_product p ORDER BY p.n`,
    },
    {
      // Last among the money steps: balances are the sums of each user's ledger entries.
      name: 'users',
      table: 'User',
      after: ['plan users', 'ledger'],
      sql: `
        INSERT INTO "User" ("id", "name", "email", "passwordHash", "isAdmin", "activeBalance", "passiveBalance", "referralCode",
                            "referredById", "referralCount", "deletedAt", "createdAt", "updatedAt")
        SELECT u.id, ${personName('u.n')},
               CASE u.n ${Object.values(KNOWN_EMAILS).map((email, i) => `WHEN ${i + 1} THEN '${email}'`).join(' ')}
                        ELSE CASE WHEN u.deleted THEN 'deleted-' || u.id || '@deleted.invalid' ELSE 'user' || u.n || '@two-year.test' END END,
               CASE WHEN u.deleted THEN '!' ELSE (SELECT hash FROM known_password) END,
               u.n = ${ADMIN_N}, coalesce(b.active, 0), coalesce(b.passive, 0),
               translate(lpad(to_hex((u.n::bigint * 2654435761) % 1099511627776), 10, '0'), '0123456789abcdef', '23456789ABCDEFGH'),
               uid('user', u.referrer_n), coalesce(r.live, 0), CASE WHEN u.deleted THEN ts(${t.now} - rnd(u.n, 44) * (${t.now} - u.created)) END,
               ts(u.created), ts(${t.now} - rnd(u.n, 45) * (${t.now} - u.created))
        FROM plan_user u
        LEFT JOIN (SELECT "userId", sum("amount") FILTER (WHERE "account" = 'ACTIVE') AS active,
                          sum("amount") FILTER (WHERE "account" = 'PASSIVE') AS passive
                   FROM "LedgerEntry" GROUP BY "userId") b ON b."userId" = u.id
        -- Each referrer's live referrals, as registering and deleting keep the count.
        LEFT JOIN (SELECT referrer_n, count(*) FILTER (WHERE NOT deleted)::int AS live FROM plan_user
                   WHERE referrer_n IS NOT NULL GROUP BY referrer_n) r ON r.referrer_n = u.n
        ORDER BY u.n`,
    },
  ];
}

function packageName(n: string): string {
  return `(ARRAY['Starter', 'Bronze', 'Silver', 'Gold', 'Platinum', 'Diamond', 'Growth', 'Turbo', 'Prime', 'Steady'])[1 + ${n} % 10]
          || ' ' || (ARRAY['Package', 'Plan', 'Node', 'Booster', 'Vault', 'Miner', 'Stake', 'Pool'])[1 + (${n} / 10) % 8] || ' ' || ${n}`;
}

function packageImage(n: string): string {
  return `(ARRAY['/images/starter.svg', '/images/silver.svg', '/images/gold.svg', '/images/platinum.svg', '/images/diamond.svg', '/images/sampler.svg'])[1 + ${n} % 6]`;
}

function personName(n: string): string {
  return `(ARRAY['Aysel', 'Murad', 'Leyla', 'Elvin', 'Nigar', 'Rashad', 'Sevinj', 'Tural', 'Gunel', 'Kamran', 'Anna', 'David', 'Maria', 'Omar', 'Yuki', 'Lucas'])[1 + ${n} % 16]
          || ' ' || (ARRAY['Aliyev', 'Mammadova', 'Huseynov', 'Guliyeva', 'Hasanov', 'Ismayilova', 'Smith', 'Garcia', 'Tanaka', 'Novak', 'Okafor', 'Silva'])[1 + (${n} / 16) % 12]`;
}
