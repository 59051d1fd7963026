-- AlterTable
ALTER TABLE "Delivery" ADD COLUMN     "shopifyAttempts" INTEGER NOT NULL DEFAULT 0,
ADD COLUMN     "shopifyPending" TEXT,
ADD COLUMN     "shopifyRetryAt" TIMESTAMP(3);

