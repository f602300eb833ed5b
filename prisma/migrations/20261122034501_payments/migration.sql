-- AlterTable
ALTER TABLE "Order" ADD COLUMN     "paidVersion" INTEGER NOT NULL DEFAULT 0,
ADD COLUMN     "receiptSentAt" TIMESTAMPTZ(3);

-- AlterTable
ALTER TABLE "Payment" ADD COLUMN     "blockTimestamp" TIMESTAMPTZ(3),
ADD COLUMN     "quoteId" UUID,
ADD COLUMN     "reportedOrderId" UUID;

-- CreateTable
CREATE TABLE "IndexedBlock" (
    "number" BIGINT NOT NULL,
    "hash" VARCHAR(66) NOT NULL,
    "parentHash" VARCHAR(66) NOT NULL,
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "IndexedBlock_pkey" PRIMARY KEY ("number")
);

-- CreateIndex
CREATE INDEX "Payment_reportedOrderId_idx" ON "Payment"("reportedOrderId");
