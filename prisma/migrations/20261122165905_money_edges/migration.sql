-- CreateEnum
CREATE TYPE "StockMovementKind" AS ENUM ('STOCKED', 'RESERVED', 'RELEASED');

-- AlterEnum
ALTER TYPE "OrderStatus" ADD VALUE 'DELETED';

-- AlterEnum
ALTER TYPE "PaymentStatus" ADD VALUE 'REFUNDED';

-- AlterEnum
ALTER TYPE "LedgerKind" ADD VALUE 'REFERRAL_REVERSAL';

-- AlterTable
ALTER TABLE "Order" ADD COLUMN     "deletedAt" TIMESTAMPTZ(3);

-- AlterTable
ALTER TABLE "Payment" ADD COLUMN     "seenPendingAt" TIMESTAMPTZ(3);

-- CreateTable
CREATE TABLE "StockMovement" (
    "id" UUID NOT NULL,
    "productId" UUID NOT NULL,
    "orderId" UUID,
    "kind" "StockMovementKind" NOT NULL,
    "delta" INTEGER NOT NULL,
    "reference" VARCHAR(200),
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "StockMovement_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "ReconciliationRun" (
    "id" UUID NOT NULL,
    "startedAt" TIMESTAMPTZ(3) NOT NULL,
    "durationMs" INTEGER NOT NULL,
    "discrepancies" JSONB NOT NULL,
    "checked" JSONB NOT NULL,
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "ReconciliationRun_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "StockMovement_productId_idx" ON "StockMovement"("productId");

-- CreateIndex
CREATE INDEX "StockMovement_orderId_idx" ON "StockMovement"("orderId");

-- CreateIndex
CREATE INDEX "ReconciliationRun_createdAt_idx" ON "ReconciliationRun"("createdAt");

-- AddForeignKey
ALTER TABLE "StockMovement" ADD CONSTRAINT "StockMovement_productId_fkey" FOREIGN KEY ("productId") REFERENCES "Product"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "StockMovement" ADD CONSTRAINT "StockMovement_orderId_fkey" FOREIGN KEY ("orderId") REFERENCES "Order"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- Hand-written (x_ objects and data).
-- A balance may go below zero through a reversal entry (a referral reward taken back
-- after its payment left the chain); every other change is checked by the ledger's
-- conditional update, and the reconciler proves balances equal the ledger.
ALTER TABLE "User" DROP CONSTRAINT "x_user_balances_nonneg";

-- The stock log starts from what the packages hold now: each order still holding stock
-- took it (RESERVED), and what was stocked is what is left plus what orders hold.
INSERT INTO "StockMovement" ("id", "productId", "orderId", "kind", "delta", "reference")
SELECT gen_random_uuid(), i."productId", i."orderId", 'RESERVED', -SUM(i."qty"), 'backfill'
FROM "OrderItem" i JOIN "Order" o ON o."id" = i."orderId"
WHERE o."stockReserved"
GROUP BY i."productId", i."orderId";

INSERT INTO "StockMovement" ("id", "productId", "kind", "delta", "reference")
SELECT gen_random_uuid(), p."id", 'STOCKED',
       p."countInStock" + COALESCE((SELECT -SUM(m."delta") FROM "StockMovement" m WHERE m."productId" = p."id"), 0), 'backfill'
FROM "Product" p;
