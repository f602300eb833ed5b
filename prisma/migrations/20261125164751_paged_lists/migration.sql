-- DropIndex
DROP INDEX "User_referredById_idx";

-- DropIndex
DROP INDEX "Order_userId_idx";

-- DropIndex
DROP INDEX "Order_status_idx";

-- DropIndex
DROP INDEX "Payment_status_idx";

-- DropIndex
DROP INDEX "CashoutRequest_status_idx";

-- DropIndex
DROP INDEX "Refund_status_idx";

-- CreateIndex
CREATE INDEX "User_referredById_createdAt_id_idx" ON "User"("referredById", "createdAt", "id");

-- CreateIndex
CREATE INDEX "User_createdAt_id_idx" ON "User"("createdAt", "id");

-- CreateIndex
CREATE INDEX "Product_createdAt_id_idx" ON "Product"("createdAt", "id");

-- CreateIndex
CREATE INDEX "Order_userId_createdAt_id_idx" ON "Order"("userId", "createdAt", "id");

-- CreateIndex
CREATE INDEX "Order_status_createdAt_id_idx" ON "Order"("status", "createdAt", "id");

-- CreateIndex
CREATE INDEX "Order_createdAt_id_idx" ON "Order"("createdAt", "id");

-- CreateIndex
CREATE INDEX "Payment_status_createdAt_id_idx" ON "Payment"("status", "createdAt", "id");

-- CreateIndex
CREATE INDEX "Payment_blockNumber_idx" ON "Payment"("blockNumber");

-- CreateIndex
CREATE INDEX "CashoutRequest_status_createdAt_id_idx" ON "CashoutRequest"("status", "createdAt", "id");

-- CreateIndex
CREATE INDEX "CashoutRequest_createdAt_id_idx" ON "CashoutRequest"("createdAt", "id");

-- CreateIndex
CREATE INDEX "Refund_status_createdAt_id_idx" ON "Refund"("status", "createdAt", "id");

-- CreateIndex
CREATE INDEX "Refund_createdAt_id_idx" ON "Refund"("createdAt", "id");

-- CreateIndex
CREATE INDEX "WebhookDelivery_endpointId_seq_id_idx" ON "WebhookDelivery"("endpointId", "seq", "id");

-- Hand-written (x_): searches by part of a name or e-mail (ILIKE '%...%') served by
-- trigram indexes, and the overpaid orders still to settle in a partial index.
CREATE EXTENSION IF NOT EXISTS pg_trgm;
CREATE INDEX "x_user_email_trgm" ON "User" USING gin ("email" gin_trgm_ops);
CREATE INDEX "x_user_name_trgm" ON "User" USING gin ("name" gin_trgm_ops);
CREATE INDEX "x_product_name_trgm" ON "Product" USING gin ("name" gin_trgm_ops);
-- Without the status in its predicate: Prisma sends an enum value as a cast parameter,
-- which a partial index's predicate cannot match; only a PAID order is ever overpaid.
CREATE INDEX "x_order_overpaid_open" ON "Order" ("createdAt", "id") WHERE "overpaidUsd" > "overpaidSettledUsd";
