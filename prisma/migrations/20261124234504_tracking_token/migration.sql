-- Tracking links carry a random token instead of the row id (ADR 0011). Rebuilding the table gives
-- every existing delivery its own token: SQLite evaluates the default for each copied row.
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
    "trackingToken" TEXT NOT NULL DEFAULT (lower(hex(randomblob(16)))),
    "trackingUrl" TEXT,
    "trackingPushedAt" DATETIME,
    "courierStatusAt" DATETIME,
    "shopifyEventStatus" TEXT,
    "syncAt" DATETIME,
    "trackedAt" DATETIME,
    "lastMovedAt" DATETIME,
    "paidMarkedAt" DATETIME,
    "shopifyPending" TEXT,
    "shopifyAttempts" INTEGER NOT NULL DEFAULT 0,
    "shopifyRetryAt" DATETIME,
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "failures" INTEGER NOT NULL DEFAULT 0,
    "nextAttemptAt" DATETIME,
    "leaseOwner" TEXT,
    "leaseExpiresAt" DATETIME,
    "lastError" TEXT,
    "unknownSince" DATETIME,
    "cancelRequestedAt" DATETIME,
    "cancelReason" TEXT,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" DATETIME NOT NULL
);
INSERT INTO "new_Delivery" ("addressMatch", "attempts", "cancelReason", "cancelRequestedAt", "cashToCollect", "courierOrderId", "courierOrderNumber", "courierStatus", "courierStatusAt", "createdAt", "environment", "failures", "fulfillmentId", "id", "lastError", "lastMovedAt", "leaseExpiresAt", "leaseOwner", "locationId", "nextAttemptAt", "orderId", "orderName", "paidMarkedAt", "reference", "request", "shop", "shopifyAttempts", "shopifyEventStatus", "shopifyPending", "shopifyRetryAt", "source", "state", "stateReason", "syncAt", "trackedAt", "trackingPushedAt", "trackingUrl", "unknownSince", "updatedAt") SELECT "addressMatch", "attempts", "cancelReason", "cancelRequestedAt", "cashToCollect", "courierOrderId", "courierOrderNumber", "courierStatus", "courierStatusAt", "createdAt", "environment", "failures", "fulfillmentId", "id", "lastError", "lastMovedAt", "leaseExpiresAt", "leaseOwner", "locationId", "nextAttemptAt", "orderId", "orderName", "paidMarkedAt", "reference", "request", "shop", "shopifyAttempts", "shopifyEventStatus", "shopifyPending", "shopifyRetryAt", "source", "state", "stateReason", "syncAt", "trackedAt", "trackingPushedAt", "trackingUrl", "unknownSince", "updatedAt" FROM "Delivery";
DROP TABLE "Delivery";
ALTER TABLE "new_Delivery" RENAME TO "Delivery";
CREATE UNIQUE INDEX "Delivery_trackingToken_key" ON "Delivery"("trackingToken");
CREATE INDEX "Delivery_state_nextAttemptAt_idx" ON "Delivery"("state", "nextAttemptAt");
CREATE INDEX "Delivery_shop_state_updatedAt_idx" ON "Delivery"("shop", "state", "updatedAt");
CREATE INDEX "Delivery_shop_orderId_idx" ON "Delivery"("shop", "orderId");
CREATE INDEX "Delivery_syncAt_idx" ON "Delivery"("syncAt");
CREATE INDEX "Delivery_shop_courierOrderId_idx" ON "Delivery"("shop", "courierOrderId");
CREATE INDEX "Delivery_cancelRequestedAt_idx" ON "Delivery"("cancelRequestedAt");
CREATE UNIQUE INDEX "Delivery_shop_fulfillmentId_key" ON "Delivery"("shop", "fulfillmentId");
CREATE UNIQUE INDEX "Delivery_shop_reference_key" ON "Delivery"("shop", "reference");
PRAGMA foreign_keys=ON;
PRAGMA defer_foreign_keys=OFF;

