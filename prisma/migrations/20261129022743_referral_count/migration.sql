-- The profile's referral count kept on the referrer (issue 39; docs/decisions.md, "The
-- two-year rows"): counting a referrer's 50,000 live referrals took 12-15 ms of every
-- profile load. Registering a referred user adds one and deleting one takes one away, in
-- the same transaction. Adding a column with a constant default is metadata only; the
-- backfill writes the referrers' rows (a few thousand of 200,000 users in the two-year
-- shop), and gives up after 5 s behind a long lock instead of queueing sign-ups.
-- Registrations by the release before this one do not add to the count: stop its api for
-- the deploy.
SET LOCAL lock_timeout = '5s';

-- AlterTable
ALTER TABLE "User" ADD COLUMN     "referralCount" INTEGER NOT NULL DEFAULT 0;

UPDATE "User" u SET "referralCount" = c.n
FROM (SELECT "referredById" AS id, count(*)::int AS n FROM "User"
      WHERE "referredById" IS NOT NULL AND "deletedAt" IS NULL GROUP BY "referredById") c
WHERE u."id" = c.id;

-- A count below zero would be a deletion counted twice.
ALTER TABLE "User" ADD CONSTRAINT "x_user_referral_count" CHECK ("referralCount" >= 0);

-- /metrics' cashouts waiting over 24 hours (api/src/modules/ops/metrics.ts), counted from
-- this index alone: the open cashouts by when they are due (the end of a new wallet's wait,
-- else the request). Reading each open cashout's row took 10 ms for the two-year shop's
-- 2,870 (0.6 ms from the index). Its columns are included: an index-only scan of an
-- expression needs the columns it is computed from. On a large shop, build it first
-- without blocking (docs/scaling.md).
CREATE INDEX IF NOT EXISTS "x_cashout_open_due" ON "CashoutRequest" (coalesce("holdUntil", "createdAt")) INCLUDE ("holdUntil", "createdAt")
  WHERE "status" IN ('REQUESTED', 'NOTIFIED');
