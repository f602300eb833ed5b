-- Hand-written (x_): the people a user referred who still have an account, in the order
-- the profile shows them. A referrer's count is read from this index alone (50,000
-- referrals: 20 ms, where Prisma's index on (referredById, createdAt, id) has to visit
-- every row for deletedAt, and the planner read all 200,000 users instead).
CREATE INDEX "x_user_live_referrals" ON "User"("referredById", "createdAt", "id") WHERE "deletedAt" IS NULL;
