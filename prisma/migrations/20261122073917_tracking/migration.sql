-- AlterTable
ALTER TABLE "Delivery" ADD COLUMN "courierStatusAt" DATETIME;
ALTER TABLE "Delivery" ADD COLUMN "paidMarkedAt" DATETIME;
ALTER TABLE "Delivery" ADD COLUMN "shopifyEventStatus" TEXT;
ALTER TABLE "Delivery" ADD COLUMN "syncAt" DATETIME;
ALTER TABLE "Delivery" ADD COLUMN "trackedAt" DATETIME;

-- CreateTable
CREATE TABLE "CourierStatusMapping" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "shop" TEXT NOT NULL,
    "code" TEXT NOT NULL,
    "name" TEXT,
    "state" TEXT,
    "shopifyStatus" TEXT,
    "source" TEXT NOT NULL,
    "lastSeenAt" DATETIME,
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
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" DATETIME NOT NULL
);
INSERT INTO "new_ShopSettings" ("autoSend", "courierApiKeyHint", "courierApiKeySealed", "courierApiKeySetAt", "courierCheckError", "courierCheckedAt", "courierEnvironment", "createdAt", "id", "installedAt", "notifyCustomer", "paymentCodeCod", "paymentCodePrepaid", "preparationMinutes", "scopes", "shop", "uninstalledAt", "updatedAt") SELECT "autoSend", "courierApiKeyHint", "courierApiKeySealed", "courierApiKeySetAt", "courierCheckError", "courierCheckedAt", "courierEnvironment", "createdAt", "id", "installedAt", "notifyCustomer", "paymentCodeCod", "paymentCodePrepaid", "preparationMinutes", "scopes", "shop", "uninstalledAt", "updatedAt" FROM "ShopSettings";
DROP TABLE "ShopSettings";
ALTER TABLE "new_ShopSettings" RENAME TO "ShopSettings";
CREATE UNIQUE INDEX "ShopSettings_shop_key" ON "ShopSettings"("shop");
CREATE UNIQUE INDEX "ShopSettings_courierWebhookToken_key" ON "ShopSettings"("courierWebhookToken");
PRAGMA foreign_keys=ON;
PRAGMA defer_foreign_keys=OFF;

-- CreateIndex
CREATE UNIQUE INDEX "CourierStatusMapping_shop_code_key" ON "CourierStatusMapping"("shop", "code");

-- CreateIndex
CREATE INDEX "Delivery_syncAt_idx" ON "Delivery"("syncAt");

-- CreateIndex
CREATE INDEX "Delivery_shop_courierOrderId_idx" ON "Delivery"("shop", "courierOrderId");

