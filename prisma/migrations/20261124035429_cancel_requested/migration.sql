-- AlterTable
ALTER TABLE "Delivery" ADD COLUMN "cancelReason" TEXT;
ALTER TABLE "Delivery" ADD COLUMN "cancelRequestedAt" DATETIME;

