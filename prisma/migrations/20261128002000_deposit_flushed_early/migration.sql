-- AlterTable
ALTER TABLE "Payment" ADD COLUMN     "flushedEarlyWei" DECIMAL(78,0) NOT NULL DEFAULT 0;
