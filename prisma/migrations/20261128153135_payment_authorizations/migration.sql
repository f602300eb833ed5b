-- Paying in USDC with one signature (issue 38; core/src/relay/): the buyers' signed EIP-3009
-- authorizations and the shop's transactions that submit them. A new table: no lock on
-- anything in use but the brief ones its foreign keys take on "Order" and "User".
SET LOCAL lock_timeout = '5s';

-- CreateEnum
CREATE TYPE "RelayStatus" AS ENUM ('RECEIVED', 'SENT', 'CONFIRMED', 'FAILED', 'DROPPED');

-- CreateTable
CREATE TABLE "PaymentAuthorization" (
    "id" UUID NOT NULL,
    "orderId" UUID NOT NULL,
    "userId" UUID NOT NULL,
    "asset" "Asset" NOT NULL,
    "fromAddress" VARCHAR(42) NOT NULL,
    "toAddress" VARCHAR(42) NOT NULL,
    "value" DECIMAL(78,0) NOT NULL,
    "validAfter" BIGINT NOT NULL,
    "validBefore" BIGINT NOT NULL,
    "nonce" VARCHAR(66) NOT NULL,
    "signature" VARCHAR(1000) NOT NULL,
    "status" "RelayStatus" NOT NULL DEFAULT 'RECEIVED',
    "reason" VARCHAR(500),
    "buyerFault" BOOLEAN NOT NULL DEFAULT false,
    "relayAddress" VARCHAR(42),
    "relayNonce" INTEGER,
    "txHash" VARCHAR(66),
    "txHashes" TEXT[] DEFAULT ARRAY[]::TEXT[],
    "gasLimit" BIGINT,
    "maxFeePerGasWei" DECIMAL(78,0),
    "maxPriorityFeePerGasWei" DECIMAL(78,0),
    "rawTx" TEXT,
    "sentAt" TIMESTAMPTZ(3),
    "gasUsed" BIGINT,
    "feeWei" DECIMAL(78,0),
    "feeUsd" DECIMAL(20,2),
    "blockNumber" BIGINT,
    "minedAt" TIMESTAMPTZ(3),
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "PaymentAuthorization_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "PaymentAuthorization_orderId_createdAt_idx" ON "PaymentAuthorization"("orderId", "createdAt");

-- CreateIndex
CREATE INDEX "PaymentAuthorization_userId_createdAt_idx" ON "PaymentAuthorization"("userId", "createdAt");

-- CreateIndex
CREATE INDEX "PaymentAuthorization_status_createdAt_idx" ON "PaymentAuthorization"("status", "createdAt");

-- CreateIndex
CREATE INDEX "PaymentAuthorization_createdAt_idx" ON "PaymentAuthorization"("createdAt");

-- CreateIndex
CREATE INDEX "PaymentAuthorization_relayAddress_relayNonce_idx" ON "PaymentAuthorization"("relayAddress", "relayNonce");

-- CreateIndex
CREATE UNIQUE INDEX "PaymentAuthorization_asset_fromAddress_nonce_key" ON "PaymentAuthorization"("asset", "fromAddress", "nonce");

-- AddForeignKey
ALTER TABLE "PaymentAuthorization" ADD CONSTRAINT "PaymentAuthorization_orderId_fkey" FOREIGN KEY ("orderId") REFERENCES "Order"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "PaymentAuthorization" ADD CONSTRAINT "PaymentAuthorization_userId_fkey" FOREIGN KEY ("userId") REFERENCES "User"("id") ON DELETE RESTRICT ON UPDATE CASCADE;
