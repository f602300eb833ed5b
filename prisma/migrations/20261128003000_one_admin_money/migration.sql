-- AlterTable
ALTER TABLE "Refund" ADD COLUMN     "formerWalletsUntilBlock" BIGINT[] DEFAULT ARRAY[]::BIGINT[];
-- AlterEnum
ALTER TYPE "ApprovalKind" ADD VALUE 'PACKAGE';

-- CreateTable
CREATE TABLE "CashoutSource" (
    "id" UUID NOT NULL,
    "cashoutId" UUID NOT NULL,
    "productId" UUID NOT NULL,
    "amountUsd" DECIMAL(18,2) NOT NULL,
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "CashoutSource_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "CashoutSource_productId_createdAt_idx" ON "CashoutSource"("productId", "createdAt");

-- CreateIndex
CREATE UNIQUE INDEX "CashoutSource_cashoutId_productId_key" ON "CashoutSource"("cashoutId", "productId");

-- CreateIndex
CREATE INDEX "PayoutCheck_requestedById_createdAt_idx" ON "PayoutCheck"("requestedById", "createdAt");

-- AddForeignKey
ALTER TABLE "CashoutSource" ADD CONSTRAINT "CashoutSource_cashoutId_fkey" FOREIGN KEY ("cashoutId") REFERENCES "CashoutRequest"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "CashoutSource" ADD CONSTRAINT "CashoutSource_productId_fkey" FOREIGN KEY ("productId") REFERENCES "Product"("id") ON DELETE CASCADE ON UPDATE CASCADE;
