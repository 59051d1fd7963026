-- AlterTable
ALTER TABLE "Delivery" ADD COLUMN     "lastMovedAt" TIMESTAMP(3);


-- Deliveries followed before: their last move is their courier status's time, the best known.
UPDATE "Delivery" SET "lastMovedAt" = "courierStatusAt" WHERE "courierStatusAt" IS NOT NULL;
