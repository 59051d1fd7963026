-- The language each staff member sees the admin in (ADR 0040), and what the shoppers' tracking
-- page shows as the shop's name and contact. New nullable columns are added in place.
-- AlterTable
ALTER TABLE "ShopSettings" ADD COLUMN "trackingContactEmail" TEXT;
ALTER TABLE "ShopSettings" ADD COLUMN "trackingContactPhone" TEXT;
ALTER TABLE "ShopSettings" ADD COLUMN "trackingShopName" TEXT;

-- CreateTable
CREATE TABLE "StaffLanguage" (
    "shop" TEXT NOT NULL,
    "userId" TEXT NOT NULL,
    "language" TEXT NOT NULL,
    "chosen" BOOLEAN NOT NULL DEFAULT false,
    "updatedAt" DATETIME NOT NULL,

    PRIMARY KEY ("shop", "userId")
);
