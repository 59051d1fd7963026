-- RedefineTables
PRAGMA defer_foreign_keys=ON;
PRAGMA foreign_keys=OFF;
CREATE TABLE "new_Delivery" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "shop" TEXT NOT NULL,
    "orderId" TEXT NOT NULL,
    "orderName" TEXT,
    "fulfillmentId" TEXT,
    "locationId" TEXT,
    "source" TEXT NOT NULL,
    "state" TEXT NOT NULL,
    "stateReason" TEXT,
    "environment" TEXT NOT NULL,
    "reference" TEXT NOT NULL,
    "request" TEXT,
    "cashToCollect" TEXT,
    "addressMatch" TEXT,
    "courierOrderId" TEXT,
    "courierOrderNumber" TEXT,
    "courierStatus" TEXT,
    "trackingUrl" TEXT,
    "trackingPushedAt" DATETIME,
    "courierStatusAt" DATETIME,
    "shopifyEventStatus" TEXT,
    "syncAt" DATETIME,
    "trackedAt" DATETIME,
    "paidMarkedAt" DATETIME,
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "failures" INTEGER NOT NULL DEFAULT 0,
    "nextAttemptAt" DATETIME,
    "leaseOwner" TEXT,
    "leaseExpiresAt" DATETIME,
    "lastError" TEXT,
    "unknownSince" DATETIME,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" DATETIME NOT NULL
);
INSERT INTO "new_Delivery" ("addressMatch", "attempts", "cashToCollect", "courierOrderId", "courierOrderNumber", "courierStatus", "courierStatusAt", "createdAt", "environment", "fulfillmentId", "id", "lastError", "leaseExpiresAt", "leaseOwner", "locationId", "nextAttemptAt", "orderId", "orderName", "paidMarkedAt", "reference", "request", "shop", "shopifyEventStatus", "source", "state", "stateReason", "syncAt", "trackedAt", "trackingPushedAt", "trackingUrl", "unknownSince", "updatedAt") SELECT "addressMatch", "attempts", "cashToCollect", "courierOrderId", "courierOrderNumber", "courierStatus", "courierStatusAt", "createdAt", "environment", "fulfillmentId", "id", "lastError", "leaseExpiresAt", "leaseOwner", "locationId", "nextAttemptAt", "orderId", "orderName", "paidMarkedAt", "reference", "request", "shop", "shopifyEventStatus", "source", "state", "stateReason", "syncAt", "trackedAt", "trackingPushedAt", "trackingUrl", "unknownSince", "updatedAt" FROM "Delivery";
DROP TABLE "Delivery";
ALTER TABLE "new_Delivery" RENAME TO "Delivery";
CREATE INDEX "Delivery_state_nextAttemptAt_idx" ON "Delivery"("state", "nextAttemptAt");
CREATE INDEX "Delivery_shop_state_updatedAt_idx" ON "Delivery"("shop", "state", "updatedAt");
CREATE INDEX "Delivery_shop_orderId_idx" ON "Delivery"("shop", "orderId");
CREATE INDEX "Delivery_syncAt_idx" ON "Delivery"("syncAt");
CREATE INDEX "Delivery_shop_courierOrderId_idx" ON "Delivery"("shop", "courierOrderId");
CREATE UNIQUE INDEX "Delivery_shop_fulfillmentId_key" ON "Delivery"("shop", "fulfillmentId");
CREATE UNIQUE INDEX "Delivery_shop_reference_key" ON "Delivery"("shop", "reference");
PRAGMA foreign_keys=ON;
PRAGMA defer_foreign_keys=OFF;

