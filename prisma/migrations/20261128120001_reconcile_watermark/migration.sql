-- AlterTable
ALTER TABLE "ReconciliationRun" ADD COLUMN     "watermark" TIMESTAMPTZ(3);
