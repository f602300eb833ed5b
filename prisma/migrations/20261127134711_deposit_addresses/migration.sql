-- CreateEnum
CREATE TYPE "DepositSweepStatus" AS ENUM ('SENT', 'CONFIRMED', 'FAILED', 'DROPPED');

-- AlterTable
ALTER TABLE "Order" ADD COLUMN     "depositAddress" VARCHAR(42);

-- AlterTable
ALTER TABLE "Payment" ADD COLUMN     "depositAddress" VARCHAR(42),
ADD COLUMN     "sweepId" UUID;

-- Hand-written (x_): a transfer is its transaction and the shop's address it reached (null:
-- the receiving address), nulls not distinct: a transaction counts once for the receiving
-- address, and once for each deposit address it delivered to (a batched withdrawal).
CREATE UNIQUE INDEX "x_payment_transfer" ON "Payment" ("txHash", "depositAddress") NULLS NOT DISTINCT;

-- DropIndex
DROP INDEX "Payment_txHash_key";

-- Hand-written (x_): deposits not yet swept on to the receiving address, by address: the
-- sweeper's candidates, the unswept total and the reconciler's deposit balances read only
-- these, never the history of swept ones.
CREATE INDEX "x_payment_unswept_deposit" ON "Payment" ("depositAddress") INCLUDE ("valueWei", "status", "blockNumber", "orderId")
  WHERE "depositAddress" IS NOT NULL AND "sweepId" IS NULL AND "status" <> 'REJECTED';

-- CreateTable
CREATE TABLE "DepositSweep" (
    "id" UUID NOT NULL,
    "txHash" VARCHAR(66) NOT NULL,
    "fromAddress" VARCHAR(42) NOT NULL,
    "nonce" INTEGER NOT NULL,
    "status" "DepositSweepStatus" NOT NULL DEFAULT 'SENT',
    "gasLimit" BIGINT NOT NULL,
    "maxFeePerGasWei" DECIMAL(78,0) NOT NULL,
    "expectedWei" DECIMAL(78,0) NOT NULL,
    "gasUsed" BIGINT,
    "feeWei" DECIMAL(78,0),
    "sweptWei" DECIMAL(78,0),
    "blockNumber" BIGINT,
    "blockHash" VARCHAR(66),
    "reason" VARCHAR(500),
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "DepositSweep_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "DepositSweepItem" (
    "id" UUID NOT NULL,
    "sweepId" UUID NOT NULL,
    "address" VARCHAR(42) NOT NULL,
    "expectedWei" DECIMAL(78,0) NOT NULL,
    "sweptWei" DECIMAL(78,0),

    CONSTRAINT "DepositSweepItem_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "DepositSweep_txHash_key" ON "DepositSweep"("txHash");

-- CreateIndex
CREATE INDEX "DepositSweep_status_createdAt_idx" ON "DepositSweep"("status", "createdAt");

-- CreateIndex
CREATE INDEX "DepositSweep_createdAt_idx" ON "DepositSweep"("createdAt");

-- CreateIndex
CREATE INDEX "DepositSweep_status_blockNumber_idx" ON "DepositSweep"("status", "blockNumber");

-- CreateIndex
CREATE INDEX "DepositSweepItem_sweepId_idx" ON "DepositSweepItem"("sweepId");

-- CreateIndex
CREATE INDEX "DepositSweepItem_address_idx" ON "DepositSweepItem"("address");

-- CreateIndex
CREATE UNIQUE INDEX "Order_depositAddress_key" ON "Order"("depositAddress");

-- AddForeignKey
ALTER TABLE "Payment" ADD CONSTRAINT "Payment_sweepId_fkey" FOREIGN KEY ("sweepId") REFERENCES "DepositSweep"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "DepositSweepItem" ADD CONSTRAINT "DepositSweepItem_sweepId_fkey" FOREIGN KEY ("sweepId") REFERENCES "DepositSweep"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- Hand-written (x_): the deposit addresses the indexer watches block by block (balances
-- compared, internal deliveries traced): orders whose payment window ends within the late
-- window or later, read as one range of this index, never the whole history of orders.
CREATE INDEX "x_order_deposit_watch" ON "Order" ("paymentDeadline") INCLUDE ("depositAddress") WHERE "depositAddress" IS NOT NULL;

-- Hand-written (x_): the deposits a sweep moved, by sweep and address: the sweep's
-- confirmation and the reconciler's sweep checks read only these rows.
CREATE INDEX "x_payment_swept" ON "Payment" ("sweepId", "depositAddress") INCLUDE ("valueWei", "status") WHERE "sweepId" IS NOT NULL;
