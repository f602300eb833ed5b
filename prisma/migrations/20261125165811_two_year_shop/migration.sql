-- DropIndex
DROP INDEX "StockMovement_productId_idx";

-- DropIndex
DROP INDEX "LedgerEntry_userId_account_idx";

-- AlterTable
ALTER TABLE "OrderItem" ADD COLUMN     "creditEndsAt" TIMESTAMPTZ(3);

-- AlterTable
ALTER TABLE "LedgerEntry" ADD COLUMN     "cashoutId" UUID,
ADD COLUMN     "orderId" UUID;

-- AlterTable
ALTER TABLE "ReconciliationRun" ADD COLUMN     "scope" VARCHAR(10) NOT NULL DEFAULT 'audit',
ADD COLUMN     "since" TIMESTAMPTZ(3);

-- CreateIndex
CREATE INDEX "Product_updatedAt_idx" ON "Product"("updatedAt");

-- CreateIndex
CREATE INDEX "StockMovement_createdAt_idx" ON "StockMovement"("createdAt");

-- CreateIndex
CREATE INDEX "Order_updatedAt_idx" ON "Order"("updatedAt");

-- CreateIndex
CREATE INDEX "OrderItem_creditEndsAt_idx" ON "OrderItem"("creditEndsAt");

-- CreateIndex
CREATE INDEX "Payment_updatedAt_idx" ON "Payment"("updatedAt");

-- CreateIndex
CREATE INDEX "LedgerEntry_orderId_idx" ON "LedgerEntry"("orderId");

-- CreateIndex
CREATE INDEX "LedgerEntry_cashoutId_idx" ON "LedgerEntry"("cashoutId");

-- CreateIndex
CREATE INDEX "LedgerEntry_createdAt_idx" ON "LedgerEntry"("createdAt");

-- CreateIndex
CREATE INDEX "CashoutRequest_updatedAt_idx" ON "CashoutRequest"("updatedAt");

-- CreateIndex
CREATE INDEX "Refund_updatedAt_idx" ON "Refund"("updatedAt");

-- CreateIndex
CREATE INDEX "PayoutCheck_updatedAt_idx" ON "PayoutCheck"("updatedAt");

-- Hand-written (x_) and backfills.
-- Ledger references as typed columns (core/src/ledger.ts sets them on every new entry).
UPDATE "LedgerEntry" SET "orderId" = substring("reference" from 7 for 36)::uuid
  WHERE "reference" ~ '^order:[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}';
UPDATE "LedgerEntry" SET "cashoutId" = substring("reference" from 9 for 36)::uuid
  WHERE "reference" ~ '^cashout:[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}';
-- Balances and stock are summed from covering indexes (an index-only scan per user or package).
CREATE INDEX "x_ledger_user_balance" ON "LedgerEntry" ("userId", "account") INCLUDE ("amount");
CREATE INDEX "x_stock_movement_product" ON "StockMovement" ("productId") INCLUDE ("delta");
-- The daily credit term of the items of paid orders.
UPDATE "OrderItem" i SET "creditEndsAt" = o."paidAt" + make_interval(hours => 24 * i."durationDays")
  FROM "Order" o WHERE o."id" = i."orderId" AND o."status" = 'PAID' AND o."paidAt" IS NOT NULL;
