-- AlterTable
ALTER TABLE "ShopSettings" ADD COLUMN     "shopifyTokenRenewalBy" TEXT,
ADD COLUMN     "shopifyTokenRenewalUntil" TIMESTAMP(3),
ADD COLUMN     "shopifyAccessLostAt" TIMESTAMP(3),
ADD COLUMN     "shopifyAccessLostReason" TEXT;
