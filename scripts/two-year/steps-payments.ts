// Transfers and what became of them: counted toward paid (and underpaid) orders, reported
// ones that failed on chain, late ones (some refunded), ones still waiting in the mempool,
// value that matched no order and the dust anyone can send. Refunds are paid out like
// cashouts: PAID only with a payout transaction the worker accepted.
import type { Step } from './runner.ts';
import { ADMIN_N, type Sizes } from './shape.ts';
import { DAY, type Timeline } from './scratch.ts';

/** Payment keys (the n of uid('pay', k)) of transfers that belong to no order start here. */
const STRAY_KEYS = 100_000_000_000;
const DUST_KEYS = 200_000_000_000;
/** The shop's payout wallet: every payout check was sent from it. */
export const PAYOUT_WALLET = '0x3c44cdddb6a900fa2b585dd299e03d12fa4293bc';

// The reasons the worker writes (core/src/payments/settle.ts, transfer.ts).
const REVERTED = 'Transaction failed (reverted) on chain';
const LATE = 'Paid after the order expired, short of its total at the price then; an admin will resolve it';
const NO_MATCHING_ORDER = 'No open order matches this amount; an admin will assign or refund it';
const DUST = 'Worth less than a cent: it pays no order; an admin will refund it';

export function paymentSteps(sizes: Sizes, t: Timeline): Step[] {
  return [
    {
      name: 'plan transfers',
      after: ['plan orders'],
      sql: `
        CREATE UNLOGGED TABLE plan_payment AS
        -- Counted: one transfer for the whole total, or a part and then the rest.
        SELECT o.n::bigint * 8 + j AS k, o.id AS order_id, CASE WHEN rnd(o.n * 8 + j, 50) < 0.6 THEN o.id END AS report_order_id,
               o.user_id, 'COUNTED' AS status, addr('wallet', o.user_n) AS from_addr,
               CASE j WHEN 1 THEN o.usd1 ELSE o.total - o.usd1 END AS usd,
               wei_for(CASE j WHEN 1 THEN o.usd1 ELSE o.total - o.usd1 END, CASE j WHEN 1 THEN o.eth ELSE eth_usd(o.t1 + 30) END) + o.tag * 1000 AS value_wei,
               CASE j WHEN 1 THEN o.t1 ELSE o.paid END AS at, uid('quote', o.n * 2 + j) AS quote_id, NULL::text AS reason, false AS pending
        FROM plan_order o CROSS JOIN LATERAL generate_series(1, o.parts) j
        UNION ALL
        -- Reported for an order, reverted on chain: moved nothing, belongs to no order.
        SELECT o.n::bigint * 8 + 2 + j, NULL, o.id, o.user_id, 'REJECTED', addr('wallet', o.user_n), NULL, NULL,
               o.created + 20 + rnd(o.n * 8 + 2 + j, 51) * 3000, NULL, '${REVERTED}', false
        FROM plan_order o
        CROSS JOIN LATERAL generate_series(1, CASE o.status WHEN 'EXPIRED' THEN floor(3.3 * rnd(o.n, 9))::int
                                                            WHEN 'PAID' THEN (rnd(o.n, 9) < 0.25)::int
                                                            WHEN 'CANCELLED' THEN (rnd(o.n, 9) < 0.3)::int ELSE 0 END) j
        UNION ALL
        -- Arrived after its order expired and short of it: LATE with its order, about half refunded since.
        SELECT o.n::bigint * 8 + 6, o.id, CASE WHEN rnd(o.n, 12) < 0.5 THEN o.id END, o.user_id,
               CASE WHEN rnd(o.n, 11) < 0.45 THEN 'REFUNDED' ELSE 'LATE' END, addr('wallet', o.user_n),
               round(o.total * (0.3 + 0.65 * rnd(o.n, 10))::numeric, 2),
               wei_for(round(o.total * (0.3 + 0.65 * rnd(o.n, 10))::numeric, 2), eth_usd(o.closed)) + o.tag * 1000,
               o.closed, NULL, '${LATE}', false
        FROM plan_order o WHERE o.status = 'LATE'
        UNION ALL
        -- Seen in the mempool for a live order (VERIFYING): no block yet.
        SELECT o.n::bigint * 8 + 7, o.id, o.id, o.user_id, 'PENDING', addr('wallet', o.user_n), NULL,
               wei_for(o.total, o.eth) + o.tag * 1000, o.t1, NULL, NULL, true
        FROM plan_order o WHERE o.status = 'VERIFYING'
        UNION ALL
        -- Value that carried no live tag: waiting for an admin, or refunded.
        SELECT ${STRAY_KEYS} + m, NULL, NULL, NULL, CASE WHEN rnd(${STRAY_KEYS} + m, 13) < 0.5 THEN 'REFUNDED' ELSE 'UNRESOLVED' END,
               addr('stranger', m), NULL, (1 + floor(rnd(m, 14) * 1500)) * 1000000000000000 + floor(rnd(m, 15) * 1000000000000),
               ${t.ordersFrom} + sqrt(rnd(m, 16)) * ${t.now - 3600 - t.ordersFrom}, NULL, '${NO_MATCHING_ORDER}', false
        FROM generate_series(1, ${sizes.strayTransfers}) m
        UNION ALL
        -- Dust from a few senders, all along.
        SELECT ${DUST_KEYS} + m, NULL, NULL, NULL, 'UNRESOLVED', addr('dust', m % 97), NULL, 1 + floor(rnd(m, 17) * 1000000000),
               ${t.opened} + rnd(m, 18) * ${t.now - 60 - t.opened}, NULL, '${DUST}', false
        FROM generate_series(1, ${sizes.dustTransfers}) m`,
    },
    {
      name: 'transfers',
      table: 'Payment',
      after: ['plan transfers'],
      sql: `
        INSERT INTO "Payment" ("id", "asset", "txHash", "orderId", "source", "status", "fromAddress", "payerAddress", "amount", "usdValue",
                               "blockNumber", "blockHash", "confirmations", "reason", "quoteId", "blockTimestamp", "seenPendingAt",
                               "createdAt", "updatedAt")
        SELECT uid('pay', p.k), 'ETH'::"Asset", hash66('tx', p.k), p.order_id,
               (CASE WHEN p.report_order_id IS NOT NULL THEN 'REPORTED' ELSE 'INDEXED' END)::"PaymentSource",
               p.status::"PaymentStatus", p.from_addr, p.from_addr, p.value_wei, p.usd,
               CASE WHEN NOT p.pending THEN block_at(p.at) END, CASE WHEN NOT p.pending THEN hash66('block', block_at(p.at)) END,
               CASE WHEN p.pending THEN 0 ELSE 12 END, p.reason, p.quote_id,
               CASE WHEN NOT p.pending THEN ts(p.at) END, CASE WHEN p.pending THEN ts(p.at) END,
               ts(p.at - CASE WHEN p.pending THEN 0 ELSE 15 END), ts(least(p.at + CASE WHEN p.pending THEN 0 ELSE 150 END, ${t.now}))
        FROM plan_payment p ORDER BY p.at`,
    },
    {
      name: 'payment reports',
      table: 'PaymentReport',
      after: ['plan transfers'],
      sql: `
        INSERT INTO "PaymentReport" ("paymentId", "orderId", "userId", "createdAt")
        SELECT uid('pay', p.k), p.report_order_id, p.user_id, ts(p.at - 15)
        FROM plan_payment p WHERE p.report_order_id IS NOT NULL ORDER BY p.at`,
    },
    {
      name: 'plan refunds',
      after: ['plan transfers'],
      sql: `
        CREATE UNLOGGED TABLE plan_refund AS
        SELECT r.*, r.paid_at IS NOT NULL AS paid, row_number() OVER (ORDER BY r.created) AS nonce
        FROM (SELECT p.k, p.order_id, p.user_id, p.from_addr AS wallet, p.value_wei, p.usd, c.created,
                     CASE WHEN rnd(p.k, 54) < 0.9 AND c.created + 3600 + rnd(p.k, 53) * 82800 < ${t.now - 60}
                          THEN c.created + 3600 + rnd(p.k, 53) * 82800 END AS paid_at
              FROM plan_payment p
              CROSS JOIN LATERAL (SELECT least(p.at + ${DAY} + rnd(p.k, 52) * ${4 * DAY}, ${t.now - 120}) AS created) c
              WHERE p.status = 'REFUNDED') r`,
    },
    {
      name: 'refunds',
      table: 'Refund',
      after: ['plan refunds'],
      sql: `
        INSERT INTO "Refund" ("id", "asset", "source", "paymentId", "orderId", "userId", "wallet", "walletSource", "amount", "amountUsd", "status",
                              "payoutTxHash", "paidAt", "paidNoticeSentAt", "requestedById", "createdAt", "updatedAt")
        SELECT uid('refund', r.k), 'ETH'::"Asset", 'TRANSFER', uid('pay', r.k), r.order_id, r.user_id, r.wallet, 'sender', r.value_wei, r.usd,
               (CASE WHEN r.paid THEN 'PAID' ELSE 'REQUESTED' END)::"RefundStatus",
               CASE WHEN r.paid THEN hash66('refund-payout', r.k) END, ts(r.paid_at), ts(r.paid_at + 30),
               uid('user', ${ADMIN_N}), ts(r.created), ts(coalesce(r.paid_at + 30, r.created))
        FROM plan_refund r ORDER BY r.created`,
    },
    {
      name: 'refund payout checks',
      table: 'PayoutCheck',
      after: ['plan refunds'],
      sql: `
        INSERT INTO "PayoutCheck" ("id", "asset", "txHash", "refundId", "wallet", "expectedAmount", "status", "fromAddress", "nonce", "toAddress",
                                   "deliveredAmount", "blockNumber", "blockHash", "requestedById", "createdAt", "updatedAt")
        SELECT uid('refund-check', r.k), 'ETH'::"Asset", hash66('refund-payout', r.k), uid('refund', r.k), r.wallet, r.value_wei, 'ACCEPTED',
               '${PAYOUT_WALLET}', 1000000 + r.nonce, r.wallet, r.value_wei, block_at(r.paid_at - 120), hash66('block', block_at(r.paid_at - 120)),
               uid('user', ${ADMIN_N}), ts(r.paid_at - 600), ts(r.paid_at)
        FROM plan_refund r WHERE r.paid ORDER BY r.paid_at`,
    },
  ];
}
