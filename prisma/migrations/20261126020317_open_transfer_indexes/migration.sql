-- CreateIndex
CREATE INDEX "Refund_paymentId_idx" ON "Refund"("paymentId");

-- Hand-written (x_): the metrics' open transfers (PENDING, UNRESOLVED, LATE) by status and
-- source, counted from this index alone, apart from two years of settled ones.
CREATE INDEX "x_payment_open_status_source" ON "Payment"("status", "source") WHERE "status" IN ('PENDING', 'UNRESOLVED', 'LATE');
