-- AlterTable
ALTER TABLE "Delivery" ADD COLUMN     "cancelReason" TEXT,
ADD COLUMN     "cancelRequestedAt" TIMESTAMP(3);

