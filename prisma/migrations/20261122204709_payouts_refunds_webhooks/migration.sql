-- CreateEnum
CREATE TYPE "RefundSource" AS ENUM ('TRANSFER', 'OVERPAYMENT');

-- CreateEnum
CREATE TYPE "RefundStatus" AS ENUM ('REQUESTED', 'PAID');

-- CreateEnum
CREATE TYPE "PayoutCheckStatus" AS ENUM ('CHECKING', 'ACCEPTED', 'REFUSED');

-- CreateEnum
CREATE TYPE "WebhookDeliveryStatus" AS ENUM ('PENDING', 'DELIVERED', 'FAILED');

-- AlterEnum
ALTER TYPE "LedgerKind" ADD VALUE 'OVERPAYMENT_CREDIT';

-- AlterTable
ALTER TABLE "Order" ADD COLUMN     "overpaidSettledUsd" DECIMAL(18,2) NOT NULL DEFAULT 0,
ADD COLUMN     "overpaidSettledWei" DECIMAL(78,0) NOT NULL DEFAULT 0;

-- AlterTable
ALTER TABLE "CashoutRequest" ADD COLUMN     "paidAt" TIMESTAMPTZ(3),
ADD COLUMN     "paidNoticeSentAt" TIMESTAMPTZ(3);

-- CreateTable
CREATE TABLE "Refund" (
    "id" UUID NOT NULL,
    "source" "RefundSource" NOT NULL,
    "paymentId" UUID,
    "orderId" UUID,
    "userId" UUID,
    "wallet" VARCHAR(42) NOT NULL,
    "walletSource" VARCHAR(20) NOT NULL,
    "formerWallets" TEXT[] DEFAULT ARRAY[]::TEXT[],
    "amountWei" DECIMAL(78,0) NOT NULL,
    "amountUsd" DECIMAL(18,2),
    "status" "RefundStatus" NOT NULL DEFAULT 'REQUESTED',
    "payoutTxHash" VARCHAR(66),
    "paidAt" TIMESTAMPTZ(3),
    "paidNoticeSentAt" TIMESTAMPTZ(3),
    "requestedById" UUID,
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "Refund_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "PayoutCheck" (
    "id" UUID NOT NULL,
    "txHash" VARCHAR(66) NOT NULL,
    "cashoutId" UUID,
    "refundId" UUID,
    "wallet" VARCHAR(42) NOT NULL,
    "expectedWei" DECIMAL(78,0) NOT NULL,
    "status" "PayoutCheckStatus" NOT NULL DEFAULT 'CHECKING',
    "reason" VARCHAR(500),
    "deliveredWei" DECIMAL(78,0),
    "blockNumber" BIGINT,
    "blockHash" VARCHAR(66),
    "requestedById" UUID,
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "PayoutCheck_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "WebhookEndpoint" (
    "id" UUID NOT NULL,
    "url" VARCHAR(2000) NOT NULL,
    "description" VARCHAR(200) NOT NULL DEFAULT '',
    "secret" VARCHAR(100) NOT NULL,
    "events" TEXT[],
    "enabled" BOOLEAN NOT NULL DEFAULT true,
    "deletedAt" TIMESTAMPTZ(3),
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "WebhookEndpoint_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "WebhookEvent" (
    "id" VARCHAR(40) NOT NULL,
    "seq" BIGSERIAL NOT NULL,
    "type" VARCHAR(50) NOT NULL,
    "subject" VARCHAR(80) NOT NULL,
    "payload" JSONB NOT NULL,
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "WebhookEvent_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "WebhookDelivery" (
    "id" UUID NOT NULL,
    "eventId" VARCHAR(40) NOT NULL,
    "endpointId" UUID NOT NULL,
    "subject" VARCHAR(80) NOT NULL,
    "seq" BIGINT NOT NULL,
    "status" "WebhookDeliveryStatus" NOT NULL DEFAULT 'PENDING',
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "lastStatus" INTEGER,
    "lastError" VARCHAR(500),
    "deliveredAt" TIMESTAMPTZ(3),
    "queuedAt" TIMESTAMPTZ(3),
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "WebhookDelivery_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "WebhookAttempt" (
    "id" UUID NOT NULL,
    "deliveryId" UUID NOT NULL,
    "at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "statusCode" INTEGER,
    "error" VARCHAR(500),
    "durationMs" INTEGER NOT NULL,

    CONSTRAINT "WebhookAttempt_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "Refund_orderId_idx" ON "Refund"("orderId");

-- CreateIndex
CREATE INDEX "Refund_userId_idx" ON "Refund"("userId");

-- CreateIndex
CREATE INDEX "Refund_status_idx" ON "Refund"("status");

-- CreateIndex
CREATE INDEX "PayoutCheck_cashoutId_idx" ON "PayoutCheck"("cashoutId");

-- CreateIndex
CREATE INDEX "PayoutCheck_refundId_idx" ON "PayoutCheck"("refundId");

-- CreateIndex
CREATE INDEX "PayoutCheck_status_idx" ON "PayoutCheck"("status");

-- CreateIndex
CREATE UNIQUE INDEX "WebhookEvent_seq_key" ON "WebhookEvent"("seq");

-- CreateIndex
CREATE INDEX "WebhookEvent_createdAt_idx" ON "WebhookEvent"("createdAt");

-- CreateIndex
CREATE INDEX "WebhookDelivery_endpointId_status_subject_seq_idx" ON "WebhookDelivery"("endpointId", "status", "subject", "seq");

-- CreateIndex
CREATE INDEX "WebhookDelivery_status_idx" ON "WebhookDelivery"("status");

-- CreateIndex
CREATE UNIQUE INDEX "WebhookDelivery_eventId_endpointId_key" ON "WebhookDelivery"("eventId", "endpointId");

-- CreateIndex
CREATE INDEX "WebhookAttempt_deliveryId_idx" ON "WebhookAttempt"("deliveryId");

-- AddForeignKey
ALTER TABLE "PayoutCheck" ADD CONSTRAINT "PayoutCheck_cashoutId_fkey" FOREIGN KEY ("cashoutId") REFERENCES "CashoutRequest"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "PayoutCheck" ADD CONSTRAINT "PayoutCheck_refundId_fkey" FOREIGN KEY ("refundId") REFERENCES "Refund"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "WebhookDelivery" ADD CONSTRAINT "WebhookDelivery_eventId_fkey" FOREIGN KEY ("eventId") REFERENCES "WebhookEvent"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "WebhookDelivery" ADD CONSTRAINT "WebhookDelivery_endpointId_fkey" FOREIGN KEY ("endpointId") REFERENCES "WebhookEndpoint"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "WebhookAttempt" ADD CONSTRAINT "WebhookAttempt_deliveryId_fkey" FOREIGN KEY ("deliveryId") REFERENCES "WebhookDelivery"("id") ON DELETE CASCADE ON UPDATE CASCADE;
-- Hand-written: a payout hash pays one payout (a refused check frees it, unless it
-- delivered part of one), one check at a time per request, one refund per transfer, and
-- a check names exactly one request.
CREATE UNIQUE INDEX "x_PayoutCheck_txHash_live" ON "PayoutCheck"(lower("txHash")) WHERE "status" <> 'REFUSED' OR "deliveredWei" > 0;
CREATE UNIQUE INDEX "x_PayoutCheck_cashout_checking" ON "PayoutCheck"("cashoutId") WHERE "status" = 'CHECKING';
CREATE UNIQUE INDEX "x_PayoutCheck_refund_checking" ON "PayoutCheck"("refundId") WHERE "status" = 'CHECKING';
ALTER TABLE "PayoutCheck" ADD CONSTRAINT "x_PayoutCheck_one_request" CHECK (("cashoutId" IS NULL) <> ("refundId" IS NULL));
CREATE UNIQUE INDEX "x_Refund_transfer_once" ON "Refund"("paymentId") WHERE "source" = 'TRANSFER';

-- Cashouts marked PAID before payouts were verified: their hash is recorded as an
-- accepted check, so it cannot pay another payout and the books see it as paid.
INSERT INTO "PayoutCheck" ("id", "txHash", "cashoutId", "wallet", "expectedWei", "status", "reason", "updatedAt")
SELECT DISTINCT ON (lower(c."payoutTxHash")) gen_random_uuid(), lower(c."payoutTxHash"), c."id", c."wallet",
       CASE WHEN c."ethUsd" IS NULL OR c."ethUsd" = 0 THEN 0 ELSE trunc(c."amountUsd" * 1e18 / c."ethUsd") END,
       'ACCEPTED', 'Recorded before payouts were verified on chain', now()
FROM "CashoutRequest" c
WHERE c."status" = 'PAID' AND c."payoutTxHash" IS NOT NULL
  AND NOT EXISTS (SELECT 1 FROM "PayoutCheck" k WHERE lower(k."txHash") = lower(c."payoutTxHash"))
ORDER BY lower(c."payoutTxHash"), c."createdAt";
