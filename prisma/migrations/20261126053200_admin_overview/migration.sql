-- The admin overview and its CSV exports (GET /api/admin/overview, /api/admin/export/*.csv)
-- read a date range of the history, never all of it.

-- Every transfer in a time range, in order: the payments export, a keyset page at a time.
-- CreateIndex
CREATE INDEX IF NOT EXISTS "Payment_createdAt_id_idx" ON "Payment"("createdAt", "id");

-- Hand-written (x_): paid orders by the time they were paid. The overview's revenue and
-- paid orders per day are summed from this index alone (an index-only scan of the range:
-- totalPrice is carried in it), and the paid-orders export pages through it by
-- (paidAt, id). Partial: it holds only PAID orders, and serves only a query that names
-- 'PAID' as a literal (admin-overview/service.ts writes it as SQL).
CREATE INDEX IF NOT EXISTS "x_order_paid_at" ON "Order" ("paidAt", "id") INCLUDE ("totalPrice") WHERE "status" = 'PAID';

-- Hand-written (x_): referral rewards and their reversals by time, with their amounts:
-- the overview's referral total reads only these rare entries in the range, not the
-- daily credit (most of the 20M entries) that LedgerEntry(createdAt) would walk through.
CREATE INDEX IF NOT EXISTS "x_ledger_referral_created" ON "LedgerEntry" ("createdAt") INCLUDE ("kind", "amount") WHERE "kind" IN ('REFERRAL_REWARD', 'REFERRAL_REVERSAL');
