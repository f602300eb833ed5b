-- Sweeping tokens (issue 37, step 3; docs/decisions.md, "Sweeping tokens"): a sweep says
-- what it moves (ETH through the factory's sweep, or tokens through recoverToken calls
-- batched by Multicall3), and each item its asset and, for a token, its amounts in the
-- token's smallest units. Metadata-only on both tables (a constant default, nullable
-- columns); the locks are brief, but one queued behind a long read of the sweeps would
-- hold the sweeper up, so the migration gives up after 5 s instead, to be run again.
SET LOCAL lock_timeout = '5s';

-- CreateEnum
CREATE TYPE "DepositSweepKind" AS ENUM ('ETH', 'TOKENS');

-- Every existing sweep is an ETH sweep.
ALTER TABLE "DepositSweep" ADD COLUMN     "kind" "DepositSweepKind" NOT NULL DEFAULT 'ETH';

-- A token item's ETH amounts are 0; its own are expectedAmount and sweptAmount.
ALTER TABLE "DepositSweepItem" ADD COLUMN     "asset" "Asset" NOT NULL DEFAULT 'ETH',
ADD COLUMN     "expectedAmount" DECIMAL(78,0),
ADD COLUMN     "sweptAmount" DECIMAL(78,0);
