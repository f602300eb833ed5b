-- AlterTable
ALTER TABLE "Payment" ADD COLUMN     "explainsInflowOf" VARCHAR(66),
ADD COLUMN     "viaContract" BOOLEAN NOT NULL DEFAULT false;

-- CreateIndex
CREATE INDEX "Payment_blockHash_idx" ON "Payment"("blockHash");
