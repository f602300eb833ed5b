-- Hand-written (x_): a buyer's live orders, those the caps on placing an order count (not
-- paid, and still holding a payment tag or stock: lockBuyers in
-- core/src/payments/place-orders.ts names this predicate as literals, so the planner can
-- use it). Through Order(userId, ...) the caps read every order the buyer ever placed; a
-- buyer with 10,000 finished orders made each placement read all of them.
-- On a large shop an operator builds it first without blocking (docs/scaling.md:
-- CREATE INDEX CONCURRENTLY IF NOT EXISTS), and this migration finds it made; otherwise
-- the build holds Order's share lock, so it gives up after 5 s rather than queue orders
-- behind a long read, to be run again.
SET LOCAL lock_timeout = '5s';
CREATE INDEX IF NOT EXISTS "x_order_buyer_live" ON "Order" ("userId") WHERE "status" <> 'PAID' AND ("paymentTag" IS NOT NULL OR "stockReserved");
