-- The language each staff member sees the admin in (ADR 0040), and what the shoppers' tracking
-- page shows as the shop's name and contact.
-- AlterTable
ALTER TABLE "ShopSettings" ADD COLUMN     "trackingContactEmail" TEXT,
ADD COLUMN     "trackingContactPhone" TEXT,
ADD COLUMN     "trackingShopName" TEXT;

-- CreateTable
CREATE TABLE "StaffLanguage" (
    "shop" TEXT NOT NULL,
    "userId" TEXT NOT NULL,
    "language" TEXT NOT NULL,
    "chosen" BOOLEAN NOT NULL DEFAULT false,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "StaffLanguage_pkey" PRIMARY KEY ("shop","userId")
);
