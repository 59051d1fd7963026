-- Tracking links carry a random token instead of the row id (ADR 0011). A volatile default is
-- evaluated for each existing row, so every delivery already recorded gets its own token.
-- AlterTable
ALTER TABLE "Delivery" ADD COLUMN     "trackingToken" TEXT NOT NULL DEFAULT md5((gen_random_uuid())::text || (gen_random_uuid())::text);

-- CreateIndex
CREATE UNIQUE INDEX "Delivery_trackingToken_key" ON "Delivery"("trackingToken");

