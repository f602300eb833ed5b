-- AlterEnum
ALTER TYPE "ApprovalKind" ADD VALUE 'ADMIN_GRANT';

-- AlterTable
ALTER TABLE "Approval" ADD COLUMN     "wallet" VARCHAR(42);
