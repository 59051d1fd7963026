-- AlterTable
ALTER TABLE "ShopSettings" ADD COLUMN     "resendOnRescueAnswer" BOOLEAN NOT NULL DEFAULT false;

-- AlterTable
ALTER TABLE "ShopperAsk" ADD COLUMN     "deliveryId" TEXT,
ADD COLUMN     "kind" TEXT NOT NULL DEFAULT 'before_sending',
ADD COLUMN     "round" INTEGER NOT NULL DEFAULT 1;

-- CreateTable
CREATE TABLE "WhatsAppAccount" (
    "id" TEXT NOT NULL,
    "shop" TEXT NOT NULL,
    "phoneNumberId" TEXT NOT NULL,
    "accessTokenSealed" TEXT NOT NULL,
    "accessTokenHint" TEXT,
    "appSecretSealed" TEXT NOT NULL,
    "webhookToken" TEXT NOT NULL,
    "verifyToken" TEXT NOT NULL,
    "webhookVerifiedAt" TIMESTAMP(3),
    "templates" TEXT,
    "enabled" BOOLEAN NOT NULL DEFAULT false,
    "quietFrom" INTEGER NOT NULL DEFAULT 1260,
    "quietUntil" INTEGER NOT NULL DEFAULT 540,
    "dailyCapPerOrder" INTEGER NOT NULL DEFAULT 2,
    "checkedAt" TIMESTAMP(3),
    "checkError" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "WhatsAppAccount_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "ShopperMessage" (
    "id" TEXT NOT NULL,
    "shop" TEXT NOT NULL,
    "orderId" TEXT NOT NULL,
    "orderName" TEXT,
    "askId" TEXT,
    "deliveryId" TEXT,
    "purpose" TEXT NOT NULL,
    "dedupeKey" TEXT NOT NULL,
    "language" TEXT NOT NULL,
    "state" TEXT NOT NULL,
    "skipReason" TEXT,
    "toPhone" TEXT,
    "notBefore" TIMESTAMP(3) NOT NULL,
    "nextAttemptAt" TIMESTAMP(3),
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "wamid" TEXT,
    "sentAt" TIMESTAMP(3),
    "deliveredAt" TIMESTAMP(3),
    "readAt" TIMESTAMP(3),
    "failedAt" TIMESTAMP(3),
    "lastError" TEXT,
    "leaseOwner" TEXT,
    "leaseExpiresAt" TIMESTAMP(3),
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "ShopperMessage_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "WhatsAppOptOut" (
    "shop" TEXT NOT NULL,
    "phoneDigest" TEXT NOT NULL,
    "source" TEXT NOT NULL,
    "at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "WhatsAppOptOut_pkey" PRIMARY KEY ("shop","phoneDigest")
);

-- CreateIndex
CREATE UNIQUE INDEX "WhatsAppAccount_shop_key" ON "WhatsAppAccount"("shop");

-- CreateIndex
CREATE UNIQUE INDEX "WhatsAppAccount_webhookToken_key" ON "WhatsAppAccount"("webhookToken");

-- CreateIndex
CREATE INDEX "ShopperMessage_nextAttemptAt_idx" ON "ShopperMessage"("nextAttemptAt");

-- CreateIndex
CREATE INDEX "ShopperMessage_shop_orderId_idx" ON "ShopperMessage"("shop", "orderId");

-- CreateIndex
CREATE INDEX "ShopperMessage_shop_createdAt_idx" ON "ShopperMessage"("shop", "createdAt");

-- CreateIndex
CREATE UNIQUE INDEX "ShopperMessage_shop_dedupeKey_key" ON "ShopperMessage"("shop", "dedupeKey");

-- CreateIndex
CREATE UNIQUE INDEX "ShopperMessage_wamid_key" ON "ShopperMessage"("wamid");

