-- AlterTable (the column is added in place: rebuilding Delivery, the work queue, is not needed,
-- and a rebuild written from an older schema would drop the columns added since)
ALTER TABLE "Delivery" ADD COLUMN "failures" INTEGER NOT NULL DEFAULT 0;
