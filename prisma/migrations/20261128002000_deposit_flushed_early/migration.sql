-- AlterTable
ALTER TABLE "Payment" ADD COLUMN     "flushedEarlyWei" DECIMAL(78,0) NOT NULL DEFAULT 0;

-- Hand-written (x_): the unswept deposits' index also carries what a flush in a deposit's
-- own transaction moved early, so the sums of what is still at each address (valueWei less
-- it) stay index-only reads.
DROP INDEX "x_payment_unswept_deposit";
CREATE INDEX "x_payment_unswept_deposit" ON "Payment" ("depositAddress") INCLUDE ("valueWei", "flushedEarlyWei", "status", "blockNumber", "orderId")
  WHERE "depositAddress" IS NOT NULL AND "sweepId" IS NULL AND "status" <> 'REJECTED';
