-- CreateTable
CREATE TABLE "ShopperAsk" (
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
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" DATETIME NOT NULL
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
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" DATETIME NOT NULL
);
INSERT INTO "new_ShopSettings" ("autoSend", "courierApiKeyHint", "courierApiKeySealed", "courierApiKeySetAt", "courierCheckError", "courierCheckedAt", "courierEnvironment", "courierWebhookSecretSealed", "courierWebhookToken", "createdAt", "exceptionsReadAt", "id", "installedAt", "markCodPaid", "markPaidOnSettlement", "notifyCustomer", "paymentCodeCod", "paymentCodePrepaid", "preparationMinutes", "scopes", "shop", "shopifyAccessLostAt", "shopifyAccessLostReason", "shopifyTokenRenewalBy", "shopifyTokenRenewalUntil", "statementColumns", "trackingContactEmail", "trackingContactPhone", "trackingShopName", "uninstalledAt", "updatedAt") SELECT "autoSend", "courierApiKeyHint", "courierApiKeySealed", "courierApiKeySetAt", "courierCheckError", "courierCheckedAt", "courierEnvironment", "courierWebhookSecretSealed", "courierWebhookToken", "createdAt", "exceptionsReadAt", "id", "installedAt", "markCodPaid", "markPaidOnSettlement", "notifyCustomer", "paymentCodeCod", "paymentCodePrepaid", "preparationMinutes", "scopes", "shop", "shopifyAccessLostAt", "shopifyAccessLostReason", "shopifyTokenRenewalBy", "shopifyTokenRenewalUntil", "statementColumns", "trackingContactEmail", "trackingContactPhone", "trackingShopName", "uninstalledAt", "updatedAt" FROM "ShopSettings";
DROP TABLE "ShopSettings";
ALTER TABLE "new_ShopSettings" RENAME TO "ShopSettings";
CREATE UNIQUE INDEX "ShopSettings_shop_key" ON "ShopSettings"("shop");
CREATE UNIQUE INDEX "ShopSettings_courierWebhookToken_key" ON "ShopSettings"("courierWebhookToken");
PRAGMA foreign_keys=ON;
PRAGMA defer_foreign_keys=OFF;

-- CreateIndex
CREATE UNIQUE INDEX "ShopperAsk_token_key" ON "ShopperAsk"("token");

-- CreateIndex
CREATE INDEX "ShopperAsk_nextAttemptAt_idx" ON "ShopperAsk"("nextAttemptAt");

-- CreateIndex
CREATE INDEX "ShopperAsk_shop_state_createdAt_idx" ON "ShopperAsk"("shop", "state", "createdAt");

-- CreateIndex
CREATE UNIQUE INDEX "ShopperAsk_shop_orderId_key" ON "ShopperAsk"("shop", "orderId");

