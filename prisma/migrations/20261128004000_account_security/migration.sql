-- CreateEnum
CREATE TYPE "SecurityNoticeKind" AS ENUM ('FACTOR_ADDED', 'FACTOR_REMOVED', 'PASSWORD_CHANGED', 'EMAIL_CHANGED', 'CASHOUT_REQUESTED');

-- AlterEnum
-- This migration adds more than one value to an enum.
-- With PostgreSQL versions 11 and earlier, this is not possible
-- in a single migration. This can be worked around by creating
-- multiple migrations, each migration adding only one value to
-- the enum.


ALTER TYPE "CashoutStatus" ADD VALUE 'HELD';
ALTER TYPE "CashoutStatus" ADD VALUE 'CANCELLED';

-- AlterTable
ALTER TABLE "CashoutRequest" ADD COLUMN     "holdUntil" TIMESTAMPTZ(3);

-- CreateTable
CREATE TABLE "WalletCancelLink" (
    "id" UUID NOT NULL,
    "userId" UUID NOT NULL,
    "wallet" VARCHAR(42) NOT NULL,
    "cashoutId" UUID NOT NULL,
    "tokenHash" CHAR(64) NOT NULL,
    "sealedToken" VARCHAR(200),
    "expiresAt" TIMESTAMPTZ(3) NOT NULL,
    "usedAt" TIMESTAMPTZ(3),
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "WalletCancelLink_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "BlockedWallet" (
    "userId" UUID NOT NULL,
    "wallet" VARCHAR(42) NOT NULL,
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "BlockedWallet_pkey" PRIMARY KEY ("userId","wallet")
);

-- CreateTable
CREATE TABLE "SecurityNotice" (
    "id" UUID NOT NULL,
    "userId" UUID NOT NULL,
    "kind" "SecurityNoticeKind" NOT NULL,
    "email" VARCHAR(254) NOT NULL,
    "detail" JSONB,
    "cashoutId" UUID,
    "sentAt" TIMESTAMPTZ(3),
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "SecurityNotice_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "WalletCancelLink_cashoutId_key" ON "WalletCancelLink"("cashoutId");

-- CreateIndex
CREATE UNIQUE INDEX "WalletCancelLink_tokenHash_key" ON "WalletCancelLink"("tokenHash");

-- CreateIndex
CREATE INDEX "WalletCancelLink_expiresAt_idx" ON "WalletCancelLink"("expiresAt");

-- CreateIndex
CREATE INDEX "SecurityNotice_userId_idx" ON "SecurityNotice"("userId");

-- CreateIndex
CREATE INDEX "SecurityNotice_sentAt_createdAt_idx" ON "SecurityNotice"("sentAt", "createdAt");

-- CreateIndex
CREATE INDEX "CashoutRequest_status_holdUntil_idx" ON "CashoutRequest"("status", "holdUntil");

-- AddForeignKey
ALTER TABLE "WalletCancelLink" ADD CONSTRAINT "WalletCancelLink_userId_fkey" FOREIGN KEY ("userId") REFERENCES "User"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "WalletCancelLink" ADD CONSTRAINT "WalletCancelLink_cashoutId_fkey" FOREIGN KEY ("cashoutId") REFERENCES "CashoutRequest"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "BlockedWallet" ADD CONSTRAINT "BlockedWallet_userId_fkey" FOREIGN KEY ("userId") REFERENCES "User"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "SecurityNotice" ADD CONSTRAINT "SecurityNotice_userId_fkey" FOREIGN KEY ("userId") REFERENCES "User"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- A user's cashouts to one wallet, in any case (core/src/cashout-holds.ts): whether the
-- account was ever paid to it, and the ones its cancel link stops.
CREATE INDEX "x_cashout_user_wallet" ON "CashoutRequest" ("userId", lower("wallet"), "status");
