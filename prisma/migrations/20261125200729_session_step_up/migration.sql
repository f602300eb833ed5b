-- AlterTable
ALTER TABLE "Session" ADD COLUMN     "stepUpAt" TIMESTAMPTZ(3);
