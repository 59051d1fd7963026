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
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" DATETIME NOT NULL
);
INSERT INTO "new_ShopSettings" ("courierApiKeyHint", "courierApiKeySealed", "courierApiKeySetAt", "courierCheckError", "courierCheckedAt", "courierEnvironment", "createdAt", "id", "installedAt", "scopes", "shop", "uninstalledAt", "updatedAt") SELECT "courierApiKeyHint", "courierApiKeySealed", "courierApiKeySetAt", "courierCheckError", "courierCheckedAt", "courierEnvironment", "createdAt", "id", "installedAt", "scopes", "shop", "uninstalledAt", "updatedAt" FROM "ShopSettings";
DROP TABLE "ShopSettings";
ALTER TABLE "new_ShopSettings" RENAME TO "ShopSettings";
CREATE UNIQUE INDEX "ShopSettings_shop_key" ON "ShopSettings"("shop");
PRAGMA foreign_keys=ON;
PRAGMA defer_foreign_keys=OFF;

