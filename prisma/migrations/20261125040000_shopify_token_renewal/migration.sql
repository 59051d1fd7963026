-- AlterTable: new nullable columns at the end, added in place (no table rebuild).
ALTER TABLE "ShopSettings" ADD COLUMN "shopifyTokenRenewalBy" TEXT;
ALTER TABLE "ShopSettings" ADD COLUMN "shopifyTokenRenewalUntil" DATETIME;
ALTER TABLE "ShopSettings" ADD COLUMN "shopifyAccessLostAt" DATETIME;
ALTER TABLE "ShopSettings" ADD COLUMN "shopifyAccessLostReason" TEXT;
