-- AlterTable
ALTER TABLE "Approval" ADD COLUMN     "reason" VARCHAR(500);
