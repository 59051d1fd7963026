-- AlterTable
ALTER TABLE "Delivery" ADD COLUMN     "failures" INTEGER NOT NULL DEFAULT 0;

