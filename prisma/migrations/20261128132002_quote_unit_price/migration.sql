-- A quote may ask for any accepted asset (issue 37): its price is USD per whole unit of
-- its own asset. A rename, metadata only: every existing quote is ETH, and its ETH/USD
-- price is that asset's. The rename takes the table's exclusive lock for an instant; the
-- migration gives up after 5 s behind a long read instead of queueing every quote.
SET LOCAL lock_timeout = '5s';
ALTER TABLE "PaymentQuote" RENAME COLUMN "ethUsd" TO "unitUsd";
