-- CreateIndex
CREATE INDEX "Order_userId_status_createdAt_id_idx" ON "Order"("userId", "status", "createdAt", "id");
