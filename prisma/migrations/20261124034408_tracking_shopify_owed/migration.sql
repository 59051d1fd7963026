-- AlterTable (columns added in place: rebuilding Delivery, the work queue, is not needed)
ALTER TABLE "Delivery" ADD COLUMN "shopifyPending" TEXT;
ALTER TABLE "Delivery" ADD COLUMN "shopifyAttempts" INTEGER NOT NULL DEFAULT 0;
ALTER TABLE "Delivery" ADD COLUMN "shopifyRetryAt" DATETIME;
