-- AlterEnum
ALTER TYPE "OrderStatus" ADD VALUE 'CANCELLED';

-- AlterTable
ALTER TABLE "Order" ADD COLUMN     "cancelledAt" TIMESTAMPTZ(3),
ADD COLUMN     "overpaidCreditedUsd" DECIMAL(18,2) NOT NULL DEFAULT 0,
ADD COLUMN     "overpaidCreditedWei" DECIMAL(78,0) NOT NULL DEFAULT 0;

-- AlterTable
ALTER TABLE "PayoutCheck" ADD COLUMN     "fromAddress" VARCHAR(42),
ADD COLUMN     "holds" BOOLEAN NOT NULL DEFAULT false,
ADD COLUMN     "nonce" BIGINT,
ADD COLUMN     "toAddress" VARCHAR(42);

-- CreateTable
CREATE TABLE "PaymentReport" (
    "paymentId" UUID NOT NULL,
    "orderId" UUID NOT NULL,
    "userId" UUID NOT NULL,
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "PaymentReport_pkey" PRIMARY KEY ("paymentId","orderId")
);

-- CreateIndex
CREATE INDEX "PaymentReport_orderId_idx" ON "PaymentReport"("orderId");

-- AddForeignKey
ALTER TABLE "PaymentReport" ADD CONSTRAINT "PaymentReport_paymentId_fkey" FOREIGN KEY ("paymentId") REFERENCES "Payment"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "PaymentReport" ADD CONSTRAINT "PaymentReport_orderId_fkey" FOREIGN KEY ("orderId") REFERENCES "Order"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- Backfill (hand-written): the reports kept on the payment move to their table.
INSERT INTO "PaymentReport" ("paymentId", "orderId", "userId", "createdAt")
SELECT p."id", p."reportedOrderId", p."reportedById", p."createdAt"
FROM "Payment" p JOIN "Order" o ON o."id" = p."reportedOrderId"
WHERE p."reportedById" IS NOT NULL;

-- DropIndex
DROP INDEX "Payment_reportedOrderId_idx";

-- AlterTable
ALTER TABLE "Payment" DROP COLUMN "reportedById",
DROP COLUMN "reportedOrderId",
ADD COLUMN     "excessSettledWei" DECIMAL(78,0) NOT NULL DEFAULT 0,
ADD COLUMN     "payerAddress" VARCHAR(42);

-- Backfill (hand-written): a plain transfer's sender sent all of it. A transfer through a
-- contract recorded before the payer was known gets none (an admin names a wallet for it).
UPDATE "Payment" SET "payerAddress" = "fromAddress" WHERE NOT "viaContract" AND "source" <> 'INFLOW' AND "fromAddress" IS NOT NULL;

-- Backfill (hand-written): what was settled and not refunded was credited.
UPDATE "Order" o SET
  "overpaidCreditedUsd" = o."overpaidSettledUsd" - COALESCE((SELECT SUM(r."amountUsd") FROM "Refund" r WHERE r."orderId" = o."id" AND r."source" = 'OVERPAYMENT'), 0),
  "overpaidCreditedWei" = o."overpaidSettledWei" - COALESCE((SELECT SUM(r."amountWei") FROM "Refund" r WHERE r."orderId" = o."id" AND r."source" = 'OVERPAYMENT'), 0)
WHERE o."overpaidSettledWei" > 0;

-- Tags widened from wei digits 7..12 to 4..12 (hand-written): a live tag T was quoted as
-- T * 10^6 wei, which is the new tag T * 1000 times its new unit (10^3): transfers already
-- on their way still carry their order's tag.
UPDATE "Order" SET "paymentTag" = "paymentTag" * 1000 WHERE "paymentTag" IS NOT NULL;
