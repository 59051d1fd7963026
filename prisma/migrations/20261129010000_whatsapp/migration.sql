-- CreateTable
CREATE TABLE "WhatsAppAccount" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "shop" TEXT NOT NULL,
    "phoneNumberId" TEXT NOT NULL,
    "accessTokenSealed" TEXT NOT NULL,
    "accessTokenHint" TEXT,
    "appSecretSealed" TEXT NOT NULL,
    "webhookToken" TEXT NOT NULL,
    "verifyToken" TEXT NOT NULL,
    "webhookVerifiedAt" DATETIME,
    "templates" TEXT,
    "enabled" BOOLEAN NOT NULL DEFAULT false,
    "quietFrom" INTEGER NOT NULL DEFAULT 1260,
    "quietUntil" INTEGER NOT NULL DEFAULT 540,
    "dailyCapPerOrder" INTEGER NOT NULL DEFAULT 2,
    "checkedAt" DATETIME,
    "checkError" TEXT,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" DATETIME NOT NULL
);

-- CreateTable
CREATE TABLE "ShopperMessage" (
    "id" TEXT NOT NULL PRIMARY KEY,
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
    "notBefore" DATETIME NOT NULL,
    "nextAttemptAt" DATETIME,
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "wamid" TEXT,
    "sentAt" DATETIME,
    "deliveredAt" DATETIME,
    "readAt" DATETIME,
    "failedAt" DATETIME,
    "lastError" TEXT,
    "leaseOwner" TEXT,
    "leaseExpiresAt" DATETIME,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" DATETIME NOT NULL
);

-- CreateTable
CREATE TABLE "WhatsAppOptOut" (
    "shop" TEXT NOT NULL,
    "phoneDigest" TEXT NOT NULL,
    "source" TEXT NOT NULL,
    "at" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,

    PRIMARY KEY ("shop", "phoneDigest")
);

-- RedefineTables
PRAGMA defer_foreign_keys=ON;
PRAGMA foreign_keys=OFF;
CREATE TABLE "new_ShopSettings" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "shop" TEXT NOT NULL,
    "installedAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "uninstalledAt" DATETIME,
    "scopes" TEXT,
    "courierEnvironment" TEXT NOT NULL DEFAULT 'sandbox',
    "courierApiKeySealed" TEXT,
    "courierApiKeyHint" TEXT,
    "courierApiKeySetAt" DATETIME,
    "courierCheckedAt" DATETIME,
    "courierCheckError" TEXT,
    "autoSend" BOOLEAN NOT NULL DEFAULT false,
    "paymentCodeCod" TEXT,
    "paymentCodePrepaid" TEXT,
    "preparationMinutes" INTEGER NOT NULL DEFAULT 120,
    "notifyCustomer" BOOLEAN NOT NULL DEFAULT true,
    "markCodPaid" BOOLEAN NOT NULL DEFAULT false,
    "courierWebhookToken" TEXT,
    "courierWebhookSecretSealed" TEXT,
    "shopifyTokenRenewalBy" TEXT,
    "shopifyTokenRenewalUntil" DATETIME,
    "shopifyAccessLostAt" DATETIME,
    "shopifyAccessLostReason" TEXT,
    "trackingShopName" TEXT,
    "trackingContactPhone" TEXT,
    "trackingContactEmail" TEXT,
    "statementColumns" TEXT,
    "markPaidOnSettlement" BOOLEAN NOT NULL DEFAULT false,
    "exceptionsReadAt" DATETIME,
    "askShoppers" BOOLEAN NOT NULL DEFAULT true,
    "askCashConfirmation" BOOLEAN NOT NULL DEFAULT false,
    "askWindowHours" INTEGER NOT NULL DEFAULT 24,
    "shopifyShopName" TEXT,
    "resendOnRescueAnswer" BOOLEAN NOT NULL DEFAULT false,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" DATETIME NOT NULL
);
INSERT INTO "new_ShopSettings" ("askCashConfirmation", "askShoppers", "askWindowHours", "autoSend", "courierApiKeyHint", "courierApiKeySealed", "courierApiKeySetAt", "courierCheckError", "courierCheckedAt", "courierEnvironment", "courierWebhookSecretSealed", "courierWebhookToken", "createdAt", "exceptionsReadAt", "id", "installedAt", "markCodPaid", "markPaidOnSettlement", "notifyCustomer", "paymentCodeCod", "paymentCodePrepaid", "preparationMinutes", "scopes", "shop", "shopifyAccessLostAt", "shopifyAccessLostReason", "shopifyShopName", "shopifyTokenRenewalBy", "shopifyTokenRenewalUntil", "statementColumns", "trackingContactEmail", "trackingContactPhone", "trackingShopName", "uninstalledAt", "updatedAt") SELECT "askCashConfirmation", "askShoppers", "askWindowHours", "autoSend", "courierApiKeyHint", "courierApiKeySealed", "courierApiKeySetAt", "courierCheckError", "courierCheckedAt", "courierEnvironment", "courierWebhookSecretSealed", "courierWebhookToken", "createdAt", "exceptionsReadAt", "id", "installedAt", "markCodPaid", "markPaidOnSettlement", "notifyCustomer", "paymentCodeCod", "paymentCodePrepaid", "preparationMinutes", "scopes", "shop", "shopifyAccessLostAt", "shopifyAccessLostReason", "shopifyShopName", "shopifyTokenRenewalBy", "shopifyTokenRenewalUntil", "statementColumns", "trackingContactEmail", "trackingContactPhone", "trackingShopName", "uninstalledAt", "updatedAt" FROM "ShopSettings";
DROP TABLE "ShopSettings";
ALTER TABLE "new_ShopSettings" RENAME TO "ShopSettings";
CREATE UNIQUE INDEX "ShopSettings_shop_key" ON "ShopSettings"("shop");
CREATE UNIQUE INDEX "ShopSettings_courierWebhookToken_key" ON "ShopSettings"("courierWebhookToken");
CREATE TABLE "new_ShopperAsk" (
    "id" TEXT NOT NULL PRIMARY KEY,
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
    "askedAt" DATETIME,
    "answerBy" DATETIME,
    "linkExpiresAt" DATETIME NOT NULL,
    "answer" TEXT,
    "answerSource" TEXT,
    "answeredAt" DATETIME,
    "pendingWork" TEXT,
    "nextAttemptAt" DATETIME,
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "lastError" TEXT,
    "leaseOwner" TEXT,
    "leaseExpiresAt" DATETIME,
    "kind" TEXT NOT NULL DEFAULT 'before_sending',
    "round" INTEGER NOT NULL DEFAULT 1,
    "deliveryId" TEXT,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" DATETIME NOT NULL
);
INSERT INTO "new_ShopperAsk" ("answer", "answerBy", "answerSource", "answeredAt", "askedAt", "attempts", "createdAt", "customerLanguage", "holds", "id", "lastError", "leaseExpiresAt", "leaseOwner", "linkExpiresAt", "nextAttemptAt", "orderId", "orderName", "orderSnapshot", "pendingWork", "questions", "reasons", "shop", "state", "token", "updatedAt") SELECT "answer", "answerBy", "answerSource", "answeredAt", "askedAt", "attempts", "createdAt", "customerLanguage", "holds", "id", "lastError", "leaseExpiresAt", "leaseOwner", "linkExpiresAt", "nextAttemptAt", "orderId", "orderName", "orderSnapshot", "pendingWork", "questions", "reasons", "shop", "state", "token", "updatedAt" FROM "ShopperAsk";
DROP TABLE "ShopperAsk";
ALTER TABLE "new_ShopperAsk" RENAME TO "ShopperAsk";
CREATE UNIQUE INDEX "ShopperAsk_token_key" ON "ShopperAsk"("token");
CREATE INDEX "ShopperAsk_nextAttemptAt_idx" ON "ShopperAsk"("nextAttemptAt");
CREATE INDEX "ShopperAsk_shop_state_createdAt_idx" ON "ShopperAsk"("shop", "state", "createdAt");
CREATE UNIQUE INDEX "ShopperAsk_shop_orderId_key" ON "ShopperAsk"("shop", "orderId");
PRAGMA foreign_keys=ON;
PRAGMA defer_foreign_keys=OFF;

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

