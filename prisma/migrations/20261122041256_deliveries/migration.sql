-- CreateTable
CREATE TABLE "PickupLocation" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "shop" TEXT NOT NULL,
    "locationId" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "governanceId" INTEGER NOT NULL,
    "areaId" INTEGER NOT NULL,
    "block" TEXT NOT NULL,
    "street" TEXT NOT NULL,
    "building" TEXT NOT NULL DEFAULT '',
    "avenue" TEXT NOT NULL DEFAULT '',
    "floor" TEXT NOT NULL DEFAULT '',
    "contactName" TEXT NOT NULL,
    "contactPhone" TEXT NOT NULL,
    "latitude" REAL,
    "longitude" REAL,
    "confirmedAt" DATETIME NOT NULL,
    "updatedAt" DATETIME NOT NULL
);

-- CreateTable
CREATE TABLE "AreaOverride" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "shop" TEXT NOT NULL,
    "spelling" TEXT NOT NULL,
    "governorate" TEXT NOT NULL,
    "area" TEXT NOT NULL,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP
);

-- CreateTable
CREATE TABLE "Delivery" (
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
    "addressMatch" TEXT,
    "courierOrderId" TEXT,
    "courierOrderNumber" TEXT,
    "courierStatus" TEXT,
    "trackingUrl" TEXT,
    "trackingPushedAt" DATETIME,
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "nextAttemptAt" DATETIME,
    "leaseOwner" TEXT,
    "leaseExpiresAt" DATETIME,
    "lastError" TEXT,
    "unknownSince" DATETIME,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" DATETIME NOT NULL
);

-- CreateTable
CREATE TABLE "DeliveryEvent" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "shop" TEXT NOT NULL,
    "deliveryId" TEXT NOT NULL,
    "at" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "kind" TEXT NOT NULL,
    "message" TEXT NOT NULL,
    "data" TEXT,
    CONSTRAINT "DeliveryEvent_deliveryId_fkey" FOREIGN KEY ("deliveryId") REFERENCES "Delivery" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "ProcessedWebhook" (
    "shop" TEXT NOT NULL,
    "webhookId" TEXT NOT NULL,
    "topic" TEXT NOT NULL,
    "receivedAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,

    PRIMARY KEY ("shop", "webhookId")
);

-- CreateIndex
CREATE UNIQUE INDEX "PickupLocation_shop_locationId_key" ON "PickupLocation"("shop", "locationId");

-- CreateIndex
CREATE UNIQUE INDEX "AreaOverride_shop_spelling_key" ON "AreaOverride"("shop", "spelling");

-- CreateIndex
CREATE INDEX "Delivery_state_nextAttemptAt_idx" ON "Delivery"("state", "nextAttemptAt");

-- CreateIndex
CREATE INDEX "Delivery_shop_state_updatedAt_idx" ON "Delivery"("shop", "state", "updatedAt");

-- CreateIndex
CREATE INDEX "Delivery_shop_orderId_idx" ON "Delivery"("shop", "orderId");

-- CreateIndex
CREATE UNIQUE INDEX "Delivery_shop_fulfillmentId_key" ON "Delivery"("shop", "fulfillmentId");

-- CreateIndex
CREATE UNIQUE INDEX "Delivery_shop_reference_key" ON "Delivery"("shop", "reference");

-- CreateIndex
CREATE INDEX "DeliveryEvent_deliveryId_at_idx" ON "DeliveryEvent"("deliveryId", "at");

-- CreateIndex
CREATE INDEX "DeliveryEvent_shop_idx" ON "DeliveryEvent"("shop");

