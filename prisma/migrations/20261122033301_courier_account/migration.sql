-- AlterTable
ALTER TABLE "ShopSettings" ADD COLUMN "courierApiKeyHint" TEXT;
ALTER TABLE "ShopSettings" ADD COLUMN "courierApiKeySealed" TEXT;
ALTER TABLE "ShopSettings" ADD COLUMN "courierApiKeySetAt" DATETIME;
ALTER TABLE "ShopSettings" ADD COLUMN "courierCheckError" TEXT;
ALTER TABLE "ShopSettings" ADD COLUMN "courierCheckedAt" DATETIME;

-- CreateTable
CREATE TABLE "CourierMasterData" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "shop" TEXT NOT NULL,
    "environment" TEXT NOT NULL,
    "governances" TEXT NOT NULL,
    "areas" TEXT NOT NULL,
    "fetchedAt" DATETIME NOT NULL
);

-- CreateIndex
CREATE UNIQUE INDEX "CourierMasterData_shop_environment_key" ON "CourierMasterData"("shop", "environment");

