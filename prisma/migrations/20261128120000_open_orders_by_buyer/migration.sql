-- Hand-written (x_): a buyer's open orders (not paid, cancelled or deleted: OPEN_STATUSES in
-- core/src/payments/order-states.ts), newest first, for the orders offered when an admin
-- assigns a transfer (GET /api/admin/payments/:id/orders). Read through Order(userId,
-- createdAt, id), a buyer with 10,000 paid orders made the search walk all of them to find
-- the few still open; this index holds only the open ones. The query names the statuses as
-- literals, the predicate's, so the planner can use it.
CREATE INDEX "x_order_open_by_buyer" ON "Order" ("userId", "createdAt", "id") WHERE "status" IN ('PENDING_PAYMENT', 'UNDERPAID', 'VERIFYING', 'LATE', 'EXPIRED');
