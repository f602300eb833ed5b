// Sign-ins and the webhook outbox. Sessions are spread over the two years (most long
// expired, a third revoked by a logout). Webhooks: an operator added an endpoint for every
// event a few weeks back and another for payments later; the outbox holds the events of
// the latest orders, each delivered (a few after retries), a few given up on by the flaky
// endpoint, the newest still pending; the attempt log holds the last two weeks and the failures.
import type { Step } from './runner.ts';
import { ADMIN_N, BUYER_N, REFERRER_N, type Sizes } from './shape.ts';
import { DAY, type Timeline } from './scratch.ts';

/** Deliveries per event: every event to the first endpoint, paid and late ones to the second for half the window. */
const DELIVERIES_PER_EVENT = 1.13;

const iso = (epoch: string) => `to_char(ts(${epoch}) AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

export function activitySteps(sizes: Sizes, t: Timeline): Step[] {
  const events = Math.max(10, Math.round(sizes.webhookDeliveries / DELIVERIES_PER_EVENT));
  return [
    {
      name: 'sessions',
      table: 'Session',
      after: ['plan users'],
      sql: `
        INSERT INTO "Session" ("id", "userId", "createdAt", "expiresAt", "revokedAt")
        SELECT uid('session', s.m), uid('user', s.n), ts(s.at), ts(s.at + ${30 * DAY}),
               CASE WHEN rnd(s.m, 92) < 0.35 THEN ts(s.at + rnd(s.m, 93) * least(${30 * DAY}, ${t.now} - s.at)) END
        FROM (SELECT b.m, b.n, least(${t.now - 1}, greatest(b.at0, user_created(b.n) + 60)) AS at
              FROM (SELECT m,
                           CASE WHEN m <= 9 THEN (ARRAY[${ADMIN_N}, ${BUYER_N}, ${REFERRER_N}])[1 + (m - 1) % 3]
                                ELSE 1 + floor(rnd(m, 91) * users_by(${t.opened} + sqrt(rnd(m, 90)) * ${t.now - 60 - t.opened}))::bigint END AS n,
                           CASE WHEN m <= 9 THEN ${t.now} - rnd(m, 90) * ${20 * DAY}
                                ELSE ${t.opened} + sqrt(rnd(m, 90)) * ${t.now - 60 - t.opened} END AS at0
                    FROM generate_series(1, ${sizes.sessions}) m) b) s
        ORDER BY s.at`,
    },
    {
      name: 'plan webhook events',
      after: ['plan orders'],
      sql: [
        `CREATE UNLOGGED TABLE plan_event AS
         SELECT row_number() OVER (ORDER BY e.at, e.n) AS seq, e.*
         FROM (SELECT o.n, o.id AS order_id, o.user_id, o.status, o.total, o.paid,
                      CASE o.status WHEN 'PAID' THEN o.total WHEN 'UNDERPAID' THEN o.usd1 ELSE 0 END AS paid_usd,
                      'order.' || lower(o.status) AS type,
                      CASE o.status WHEN 'PAID' THEN o.paid WHEN 'UNDERPAID' THEN o.t1 ELSE o.closed END AS at
               FROM plan_order o WHERE o.status NOT IN ('PENDING_PAYMENT', 'VERIFYING')
               ORDER BY at DESC, o.n LIMIT ${events}) e`,
        `CREATE UNLOGGED TABLE plan_endpoint AS
         SELECT k, uid('endpoint', k) AS id, url, events, created, deleted
         FROM (SELECT min(at) AS first, (SELECT at FROM plan_event WHERE seq = greatest(1, ${Math.floor(events / 2)})) AS middle FROM plan_event) w
         CROSS JOIN LATERAL (VALUES
           (1, 'https://hooks.example.com/eth-shop', ARRAY['order.paid', 'order.underpaid', 'order.late', 'order.expired', 'order.cancelled',
                                                           'payment.unresolved', 'cashout.requested', 'cashout.paid', 'refund.paid'],
            w.first - ${DAY}, NULL::float8),
           (2, 'https://erp.example.net/webhooks/shop', ARRAY['order.paid', 'order.late', 'cashout.paid', 'refund.paid'], w.middle - 1, NULL),
           (3, 'https://old.example.org/hook', ARRAY['order.paid'], w.first - ${60 * DAY}, w.first - ${2 * DAY})
         ) AS e(k, url, events, created, deleted)`,
      ],
    },
    {
      name: 'webhook endpoints',
      table: 'WebhookEndpoint',
      after: ['plan webhook events'],
      sql: `
        INSERT INTO "WebhookEndpoint" ("id", "url", "description", "secret", "events", "enabled", "deletedAt", "createdAt", "updatedAt")
        SELECT e.id, e.url, CASE e.k WHEN 1 THEN 'Operations dashboard' WHEN 2 THEN 'Accounting' ELSE 'Old integration' END,
               'whsec_' || encode(decode(md5('secret:' || e.k) || substr(md5('secret#' || e.k), 1, 16), 'hex'), 'base64'),
               e.events, e.deleted IS NULL, ts(e.deleted), ts(e.created), ts(coalesce(e.deleted, e.created))
        FROM plan_endpoint e`,
    },
    {
      name: 'webhook events',
      table: 'WebhookEvent',
      after: ['plan webhook events'],
      sql: `
        INSERT INTO "WebhookEvent" ("id", "seq", "type", "subject", "payload", "createdAt")
        SELECT 'msg_' || replace(uid('event', e.seq)::text, '-', ''), e.seq, e.type, 'order:' || e.order_id,
               jsonb_build_object('type', e.type, 'timestamp', ${iso('e.at')},
                 'data', jsonb_build_object('order', jsonb_build_object('id', e.order_id, 'userId', e.user_id, 'status', e.status,
                   'totalPrice', e.total::text, 'paidUsd', e.paid_usd::text, 'overpaidUsd', '0.00',
                   'paidAt', CASE WHEN e.paid IS NOT NULL THEN ${iso('e.paid')} END))),
               ts(e.at)
        FROM plan_event e ORDER BY e.seq`,
    },
    {
      name: 'plan webhook deliveries',
      after: ['plan webhook events'],
      sql: `
        CREATE UNLOGGED TABLE plan_delivery AS
        SELECT d.*, CASE WHEN d.status = 'FAILED' THEN 12 WHEN d.status = 'PENDING' THEN 0
                         WHEN rnd(d.dk, 81) < 0.92 THEN 1 WHEN rnd(d.dk, 81) < 0.98 THEN 2 ELSE 3 END AS attempts
        FROM (SELECT e.seq * 4 + p.k AS dk, e.seq, e.order_id, e.at, p.k, p.id AS endpoint_id,
                     CASE WHEN e.at > ${t.now - 120} THEN 'PENDING'
                          WHEN p.k = 2 AND e.at < ${t.now - 3 * DAY} AND rnd(e.seq * 4 + p.k, 80) < 0.02 THEN 'FAILED'
                          ELSE 'DELIVERED' END AS status
              FROM plan_event e JOIN plan_endpoint p ON p.deleted IS NULL AND e.at >= p.created AND e.type = ANY(p.events)) d`,
    },
    {
      name: 'webhook deliveries',
      table: 'WebhookDelivery',
      after: ['plan webhook deliveries'],
      sql: `
        INSERT INTO "WebhookDelivery" ("id", "eventId", "endpointId", "subject", "seq", "status", "attempts", "lastStatus", "lastError",
                                       "deliveredAt", "queuedAt", "createdAt", "updatedAt")
        SELECT uid('delivery', d.dk), 'msg_' || replace(uid('event', d.seq)::text, '-', ''), d.endpoint_id, 'order:' || d.order_id, d.seq,
               d.status::"WebhookDeliveryStatus", d.attempts,
               CASE d.status WHEN 'DELIVERED' THEN 200 WHEN 'FAILED' THEN 503 END,
               CASE WHEN d.status = 'FAILED' THEN 'HTTP 503 Service Unavailable' END,
               CASE WHEN d.status = 'DELIVERED' THEN ts(d.at + 0.3 + (d.attempts - 1) * 30 + rnd(d.dk, 82) * 2) END,
               CASE WHEN d.status <> 'PENDING' THEN ts(d.at + 0.1) END, ts(d.at),
               ts(CASE d.status WHEN 'DELIVERED' THEN d.at + 0.3 + (d.attempts - 1) * 30 + rnd(d.dk, 82) * 2
                                WHEN 'FAILED' THEN d.at + ${3 * DAY} ELSE d.at END)
        FROM plan_delivery d ORDER BY d.seq, d.k`,
    },
    {
      name: 'webhook attempts',
      table: 'WebhookAttempt',
      after: ['plan webhook deliveries'],
      sql: `
        INSERT INTO "WebhookAttempt" ("id", "deliveryId", "at", "statusCode", "error", "durationMs")
        SELECT uid('attempt', d.dk * 16 + a), uid('delivery', d.dk),
               ts(CASE WHEN d.status = 'FAILED' THEN d.at + (a - 1) * ${(3 * DAY) / 11} ELSE d.at + 0.3 + (a - 1) * 30 END),
               CASE WHEN d.status = 'FAILED' THEN 503 WHEN a = d.attempts THEN 200 END,
               CASE WHEN d.status = 'FAILED' THEN 'HTTP 503 Service Unavailable' WHEN a < d.attempts THEN 'Timed out after 10 s' END,
               CASE WHEN d.status <> 'FAILED' AND a < d.attempts THEN 10000 ELSE 20 + floor(rnd(d.dk * 16 + a, 83) * 900)::int END
        FROM plan_delivery d CROSS JOIN LATERAL generate_series(1, d.attempts) a
        WHERE d.status = 'FAILED' OR d.at > ${t.now - 14 * DAY}
        ORDER BY 3`,
    },
  ];
}
