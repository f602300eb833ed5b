-- Hand-written (x_): partial indexes on open work. The periodic sweeps read the rows still
-- waiting for something through them, never the finished history, however long the shop
-- has run. A partial index serves only a query that names its statuses as literals (a
-- status passed as a parameter, as Prisma's query builder sends it, cannot be matched to
-- the predicate), so those sweeps are written as SQL (core/src/payments/maintenance.ts,
-- expireOrders in core/src/payments/orders.ts).
-- Paid orders whose receipt has not gone out (the payment sweep re-queues it).
CREATE INDEX "x_order_receipt_unsent" ON "Order" ("paidAt") WHERE "status" = 'PAID' AND "receiptSentAt" IS NULL;
-- Orders whose payment window can still run out (order expiry): payable ones, and late ones still holding stock.
CREATE INDEX "x_order_expirable" ON "Order" ("paymentDeadline") WHERE "status" IN ('PENDING_PAYMENT', 'UNDERPAID', 'VERIFYING') OR ("status" = 'LATE' AND "stockReserved");
-- Paid cashouts and refunds whose buyer has not been told yet (the payment sweep).
CREATE INDEX "x_cashout_paid_unnoticed" ON "CashoutRequest" ("paidAt") WHERE "status" = 'PAID' AND "paidNoticeSentAt" IS NULL;
CREATE INDEX "x_refund_paid_unnoticed" ON "Refund" ("paidAt") WHERE "status" = 'PAID' AND "paidNoticeSentAt" IS NULL AND "userId" IS NOT NULL;
-- Revoked sessions, for the retention job (expired ones are found by Session(expiresAt)).
CREATE INDEX "x_session_revoked" ON "Session" ("revokedAt") WHERE "revokedAt" IS NOT NULL;
