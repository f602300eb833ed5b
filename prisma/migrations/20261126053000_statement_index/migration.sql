-- Hand-written (x_): a user's ledger entries in the order their statement shows them
-- (newest first, GET /api/users/profile/statement). Without it a page of one user's
-- statement reads every entry of theirs through (userId, account) and sorts them: a
-- user with two years of daily credit on ten packages has 7,300.
CREATE INDEX IF NOT EXISTS "x_ledger_user_statement" ON "LedgerEntry"("userId", "createdAt", "id");
