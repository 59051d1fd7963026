-- AlterTable
ALTER TABLE "ShopSettings" ADD COLUMN     "askCashConfirmation" BOOLEAN NOT NULL DEFAULT false,
ADD COLUMN     "askShoppers" BOOLEAN NOT NULL DEFAULT true,
ADD COLUMN     "askWindowHours" INTEGER NOT NULL DEFAULT 24,
ADD COLUMN     "shopifyShopName" TEXT;

-- CreateTable
CREATE TABLE "ShopperAsk" (
    "id" TEXT NOT NULL,
    "shop" TEXT NOT NULL,
    "orderId" TEXT NOT NULL,
    "orderName" TEXT,
    "token" TEXT NOT NULL,
    "state" TEXT NOT NULL,
    "questions" TEXT,
    "reasons" TEXT,
    "orderSnapshot" TEXT,
    "customerLanguage" TEXT,
    "holds" TEXT,
    "askedAt" TIMESTAMP(3),
    "answerBy" TIMESTAMP(3),
    "linkExpiresAt" TIMESTAMP(3) NOT NULL,
    "answer" TEXT,
    "answerSource" TEXT,
    "answeredAt" TIMESTAMP(3),
    "pendingWork" TEXT,
    "nextAttemptAt" TIMESTAMP(3),
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "lastError" TEXT,
    "leaseOwner" TEXT,
    "leaseExpiresAt" TIMESTAMP(3),
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "ShopperAsk_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "ShopperAsk_token_key" ON "ShopperAsk"("token");

-- CreateIndex
CREATE INDEX "ShopperAsk_nextAttemptAt_idx" ON "ShopperAsk"("nextAttemptAt");

-- CreateIndex
CREATE INDEX "ShopperAsk_shop_state_createdAt_idx" ON "ShopperAsk"("shop", "state", "createdAt");

-- CreateIndex
CREATE UNIQUE INDEX "ShopperAsk_shop_orderId_key" ON "ShopperAsk"("shop", "orderId");

