-- AlterEnum
ALTER TYPE "PaymentSource" ADD VALUE 'INFLOW';
