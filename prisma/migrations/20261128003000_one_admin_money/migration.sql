-- AlterTable
ALTER TABLE "Refund" ADD COLUMN     "formerWalletsUntilBlock" BIGINT[] DEFAULT ARRAY[]::BIGINT[];
