-- Hand-written (x_): the reconciler reads an order's referral rewards and overpayment
-- credits by their kind. Through the order's whole ledger index (daily credit writes an
-- entry per paid day) an audit batch of 2,000 orders read about 4 s of scattered rows on
-- two years of data; these partial indexes hold only the rare kinds (about 20 ms).
CREATE INDEX "x_ledger_order_referral" ON "LedgerEntry" ("orderId") WHERE "kind" IN ('REFERRAL_REWARD', 'REFERRAL_REVERSAL');
CREATE INDEX "x_ledger_order_overpayment" ON "LedgerEntry" ("orderId") WHERE "kind" = 'OVERPAYMENT_CREDIT';
-- Users edited since the reconciler's last run (a balance changed outside the ledger
-- through the application is caught within minutes, not at the weekly audit).
CREATE INDEX "x_user_updated" ON "User" ("updatedAt");
