-- AlterTable
ALTER TABLE "Delivery" ADD COLUMN "cashToCollect" TEXT;

