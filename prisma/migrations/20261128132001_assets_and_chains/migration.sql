-- The data knows the asset (issue 37, step 2; docs/decisions.md). Every statement here
-- is metadata-only on a big table (renames, ADD COLUMN with a constant default, a
-- nullable column) except the new unique index on Payment, built before the old one is
-- dropped so a transfer is never without its key. On a large shop an operator builds that
-- index first, without blocking (docs/scaling.md: the column, then CREATE UNIQUE INDEX
-- CONCURRENTLY), and this migration finds both made. The renames take their tables'
-- exclusive locks: waiting behind a long read of Payment (an export) would queue every
-- payment behind them, so the migration gives up after 5 s instead, to be run again.
SET LOCAL lock_timeout = '5s';

-- CreateEnum
CREATE TYPE "Asset" AS ENUM ('ETH', 'USDC', 'USDT');

-- Amounts on chain are in their asset's smallest units: renamed, never copied. Every
-- existing row is ETH.
ALTER TABLE "PaymentQuote" RENAME COLUMN "amountWei" TO "amount";
ALTER TABLE "PaymentQuote" ADD COLUMN "asset" "Asset" NOT NULL DEFAULT 'ETH';

ALTER TABLE "Payment" RENAME COLUMN "valueWei" TO "amount";
ALTER TABLE "Payment" RENAME COLUMN "excessSettledWei" TO "excessSettled";
ALTER TABLE "Payment" RENAME COLUMN "flushedEarlyWei" TO "flushedEarly";
ALTER TABLE "Payment" ADD COLUMN "asset" "Asset" NOT NULL DEFAULT 'ETH',
ADD COLUMN IF NOT EXISTS "logIndex" INTEGER;
-- A token's transfer is its Transfer log, a value transfer has none: a token payment
-- keyed without its log (a buyer's report knows only the hash) beside the same transfer
-- with it would be one Transfer counted twice. Every row so far is ETH without a log, so
-- nothing is scanned (NOT VALID: new and changed rows are checked).
ALTER TABLE "Payment" ADD CONSTRAINT "x_payment_log_by_asset" CHECK (("asset" = 'ETH') = ("logIndex" IS NULL)) NOT VALID;

ALTER TABLE "Refund" RENAME COLUMN "amountWei" TO "amount";
ALTER TABLE "Refund" ADD COLUMN "asset" "Asset" NOT NULL DEFAULT 'ETH';

ALTER TABLE "PayoutCheck" RENAME COLUMN "expectedWei" TO "expectedAmount";
ALTER TABLE "PayoutCheck" RENAME COLUMN "deliveredWei" TO "deliveredAmount";
ALTER TABLE "PayoutCheck" ADD COLUMN "asset" "Asset" NOT NULL DEFAULT 'ETH';

-- Hand-written (x_): a transfer is its transaction, the shop's address it reached (null:
-- the receiving address) and the token Transfer log that delivered it (null: a value
-- transfer), nulls not distinct: one transaction whose two Transfer logs pay two orders
-- is two payments. Built, then the old key dropped.
CREATE UNIQUE INDEX IF NOT EXISTS "x_payment_transfer_log" ON "Payment" ("txHash", "depositAddress", "logIndex") NULLS NOT DISTINCT;
DROP INDEX "x_payment_transfer";

-- Indexed blocks and the checkpoint are one chain's each. Both tables are small (a
-- window of recent blocks, one row a chain). A checkpoint written before the chain id
-- was recorded is mainnet's (the only chain the shop ever followed there).
UPDATE "ChainCursor" SET "chainId" = 1 WHERE "chainId" IS NULL;
ALTER TABLE "IndexedBlock" ADD COLUMN "chainId" INTEGER;
UPDATE "IndexedBlock" SET "chainId" = COALESCE((SELECT min("chainId") FROM "ChainCursor"), 1);
ALTER TABLE "IndexedBlock" ALTER COLUMN "chainId" SET NOT NULL,
DROP CONSTRAINT "IndexedBlock_pkey",
ADD CONSTRAINT "IndexedBlock_pkey" PRIMARY KEY ("chainId", "number");

ALTER TABLE "ChainCursor" DROP CONSTRAINT "ChainCursor_pkey",
DROP COLUMN "id",
ALTER COLUMN "chainId" SET NOT NULL,
ADD CONSTRAINT "ChainCursor_pkey" PRIMARY KEY ("chainId");
