-- CreateSchema
CREATE SCHEMA IF NOT EXISTS "public";

-- CreateEnum
CREATE TYPE "OrderStatus" AS ENUM ('PENDING_PAYMENT', 'VERIFYING', 'UNDERPAID', 'LATE', 'PAID', 'EXPIRED');

-- CreateEnum
CREATE TYPE "PaymentSource" AS ENUM ('REPORTED', 'INDEXED');

-- CreateEnum
CREATE TYPE "PaymentStatus" AS ENUM ('PENDING', 'COUNTED', 'REJECTED', 'UNRESOLVED', 'LATE');

-- CreateEnum
CREATE TYPE "LedgerAccount" AS ENUM ('ACTIVE', 'PASSIVE');

-- CreateEnum
CREATE TYPE "LedgerKind" AS ENUM ('DAILY_CREDIT', 'REFERRAL_REWARD', 'EXCHANGE', 'CASHOUT', 'ADMIN_ADJUSTMENT');

-- CreateEnum
CREATE TYPE "CashoutStatus" AS ENUM ('REQUESTED', 'NOTIFIED', 'PAID', 'REJECTED');

-- CreateTable
CREATE TABLE "User" (
    "id" UUID NOT NULL,
    "name" VARCHAR(100) NOT NULL,
    "email" VARCHAR(254) NOT NULL,
    "passwordHash" TEXT NOT NULL,
    "isAdmin" BOOLEAN NOT NULL DEFAULT false,
    "activeBalance" DECIMAL(18,2) NOT NULL DEFAULT 0,
    "passiveBalance" DECIMAL(18,2) NOT NULL DEFAULT 0,
    "referralCode" VARCHAR(32) NOT NULL,
    "referredById" UUID,
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "User_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "Product" (
    "id" UUID NOT NULL,
    "name" VARCHAR(200) NOT NULL,
    "image" VARCHAR(500) NOT NULL,
    "description" VARCHAR(5000) NOT NULL,
    "price" DECIMAL(18,2) NOT NULL,
    "rating" DECIMAL(3,2) NOT NULL DEFAULT 0,
    "numReviews" INTEGER NOT NULL DEFAULT 0,
    "countInStock" INTEGER NOT NULL DEFAULT 0,
    "dailyCredit" DECIMAL(18,2) NOT NULL DEFAULT 0,
    "durationDays" INTEGER NOT NULL DEFAULT 30,
    "deletedAt" TIMESTAMPTZ(3),
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "Product_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "Order" (
    "id" UUID NOT NULL,
    "userId" UUID NOT NULL,
    "status" "OrderStatus" NOT NULL DEFAULT 'PENDING_PAYMENT',
    "itemsPrice" DECIMAL(18,2) NOT NULL,
    "totalPrice" DECIMAL(18,2) NOT NULL,
    "paymentTag" INTEGER,
    "stockReserved" BOOLEAN NOT NULL DEFAULT true,
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMPTZ(3) NOT NULL,
    "placedAtBlock" BIGINT,
    "paymentDeadline" TIMESTAMPTZ(3),
    "paidAt" TIMESTAMPTZ(3),
    "expiresAt" TIMESTAMPTZ(3),
    "paidUsd" DECIMAL(18,2) NOT NULL DEFAULT 0,
    "overpaidUsd" DECIMAL(18,2) NOT NULL DEFAULT 0,

    CONSTRAINT "Order_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "OrderItem" (
    "id" UUID NOT NULL,
    "orderId" UUID NOT NULL,
    "productId" UUID NOT NULL,
    "name" VARCHAR(200) NOT NULL,
    "image" VARCHAR(500) NOT NULL,
    "price" DECIMAL(18,2) NOT NULL,
    "qty" INTEGER NOT NULL,
    "dailyCredit" DECIMAL(18,2) NOT NULL,
    "durationDays" INTEGER NOT NULL,

    CONSTRAINT "OrderItem_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "PaymentQuote" (
    "id" UUID NOT NULL,
    "orderId" UUID NOT NULL,
    "ethUsd" DECIMAL(24,8) NOT NULL,
    "usdAmount" DECIMAL(18,2) NOT NULL,
    "amountWei" DECIMAL(78,0) NOT NULL,
    "receivingAddress" VARCHAR(42) NOT NULL,
    "chainId" INTEGER NOT NULL,
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "expiresAt" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "PaymentQuote_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "Payment" (
    "id" UUID NOT NULL,
    "txHash" VARCHAR(66) NOT NULL,
    "orderId" UUID,
    "source" "PaymentSource" NOT NULL,
    "status" "PaymentStatus" NOT NULL DEFAULT 'PENDING',
    "fromAddress" VARCHAR(42),
    "valueWei" DECIMAL(78,0),
    "usdValue" DECIMAL(18,2),
    "blockNumber" BIGINT,
    "blockHash" VARCHAR(66),
    "confirmations" INTEGER NOT NULL DEFAULT 0,
    "reason" VARCHAR(500),
    "reportedById" UUID,
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "Payment_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "LedgerEntry" (
    "id" UUID NOT NULL,
    "userId" UUID NOT NULL,
    "account" "LedgerAccount" NOT NULL,
    "amount" DECIMAL(18,2) NOT NULL,
    "kind" "LedgerKind" NOT NULL,
    "reference" VARCHAR(200),
    "idempotencyKey" VARCHAR(200) NOT NULL,
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "LedgerEntry_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "CashoutRequest" (
    "id" UUID NOT NULL,
    "userId" UUID NOT NULL,
    "wallet" VARCHAR(42) NOT NULL,
    "amountUsd" DECIMAL(18,2) NOT NULL,
    "ethUsd" DECIMAL(24,8),
    "status" "CashoutStatus" NOT NULL DEFAULT 'REQUESTED',
    "payoutTxHash" VARCHAR(66),
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "CashoutRequest_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "ChainCursor" (
    "id" VARCHAR(50) NOT NULL,
    "blockNumber" BIGINT NOT NULL,
    "blockHash" VARCHAR(66) NOT NULL,
    "updatedAt" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "ChainCursor_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "User_email_key" ON "User"("email");

-- CreateIndex
CREATE UNIQUE INDEX "User_referralCode_key" ON "User"("referralCode");

-- CreateIndex
CREATE INDEX "User_referredById_idx" ON "User"("referredById");

-- CreateIndex
CREATE INDEX "Order_userId_idx" ON "Order"("userId");

-- CreateIndex
CREATE INDEX "Order_status_idx" ON "Order"("status");

-- CreateIndex
CREATE INDEX "OrderItem_orderId_idx" ON "OrderItem"("orderId");

-- CreateIndex
CREATE INDEX "OrderItem_productId_idx" ON "OrderItem"("productId");

-- CreateIndex
CREATE INDEX "PaymentQuote_orderId_expiresAt_idx" ON "PaymentQuote"("orderId", "expiresAt");

-- CreateIndex
CREATE UNIQUE INDEX "Payment_txHash_key" ON "Payment"("txHash");

-- CreateIndex
CREATE INDEX "Payment_orderId_idx" ON "Payment"("orderId");

-- CreateIndex
CREATE INDEX "Payment_status_idx" ON "Payment"("status");

-- CreateIndex
CREATE UNIQUE INDEX "LedgerEntry_idempotencyKey_key" ON "LedgerEntry"("idempotencyKey");

-- CreateIndex
CREATE INDEX "LedgerEntry_userId_account_idx" ON "LedgerEntry"("userId", "account");

-- CreateIndex
CREATE INDEX "CashoutRequest_userId_idx" ON "CashoutRequest"("userId");

-- CreateIndex
CREATE INDEX "CashoutRequest_status_idx" ON "CashoutRequest"("status");

-- AddForeignKey
ALTER TABLE "User" ADD CONSTRAINT "User_referredById_fkey" FOREIGN KEY ("referredById") REFERENCES "User"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Order" ADD CONSTRAINT "Order_userId_fkey" FOREIGN KEY ("userId") REFERENCES "User"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "OrderItem" ADD CONSTRAINT "OrderItem_orderId_fkey" FOREIGN KEY ("orderId") REFERENCES "Order"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "OrderItem" ADD CONSTRAINT "OrderItem_productId_fkey" FOREIGN KEY ("productId") REFERENCES "Product"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "PaymentQuote" ADD CONSTRAINT "PaymentQuote_orderId_fkey" FOREIGN KEY ("orderId") REFERENCES "Order"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Payment" ADD CONSTRAINT "Payment_orderId_fkey" FOREIGN KEY ("orderId") REFERENCES "Order"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "LedgerEntry" ADD CONSTRAINT "LedgerEntry_userId_fkey" FOREIGN KEY ("userId") REFERENCES "User"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "CashoutRequest" ADD CONSTRAINT "CashoutRequest_userId_fkey" FOREIGN KEY ("userId") REFERENCES "User"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- Hand-written: rules schema.prisma cannot express. Every object here is named x_... so
-- the drift test (scripts/db/migrations.test.ts) can tell it from what Prisma generates.

-- Emails are unique whatever their case, even for rows not written through the application.
CREATE UNIQUE INDEX "x_user_email_lower" ON "User" (lower("email"));

-- A live payment tag identifies one order; settled orders release theirs (NULL).
CREATE UNIQUE INDEX "x_order_payment_tag_live" ON "Order" ("paymentTag") WHERE "paymentTag" IS NOT NULL;

ALTER TABLE "User" ADD CONSTRAINT "x_user_balances_nonneg" CHECK ("activeBalance" >= 0 AND "passiveBalance" >= 0);
ALTER TABLE "Product" ADD CONSTRAINT "x_product_stock_nonneg" CHECK ("countInStock" >= 0);
ALTER TABLE "Product" ADD CONSTRAINT "x_product_price_nonneg" CHECK ("price" >= 0);
ALTER TABLE "Product" ADD CONSTRAINT "x_product_daily_credit_nonneg" CHECK ("dailyCredit" >= 0);
ALTER TABLE "Product" ADD CONSTRAINT "x_product_rating_range" CHECK ("rating" >= 0 AND "rating" <= 5);
ALTER TABLE "OrderItem" ADD CONSTRAINT "x_order_item_qty_pos" CHECK ("qty" > 0);
ALTER TABLE "CashoutRequest" ADD CONSTRAINT "x_cashout_amount_pos" CHECK ("amountUsd" > 0);
