-- CreateSchema
CREATE SCHEMA IF NOT EXISTS "public";

-- CreateTable
CREATE TABLE "Session" (
    "id" TEXT NOT NULL,
    "shop" TEXT NOT NULL,
    "state" TEXT NOT NULL,
    "isOnline" BOOLEAN NOT NULL DEFAULT false,
    "scope" TEXT,
    "expires" TIMESTAMP(3),
    "accessToken" TEXT NOT NULL,
    "userId" BIGINT,
    "firstName" TEXT,
    "lastName" TEXT,
    "email" TEXT,
    "accountOwner" BOOLEAN NOT NULL DEFAULT false,
    "locale" TEXT,
    "collaborator" BOOLEAN DEFAULT false,
    "emailVerified" BOOLEAN DEFAULT false,
    "refreshToken" TEXT,
    "refreshTokenExpires" TIMESTAMP(3),

    CONSTRAINT "Session_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "ShopSettings" (
    "id" TEXT NOT NULL,
    "shop" TEXT NOT NULL,
    "installedAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "uninstalledAt" TIMESTAMP(3),
    "scopes" TEXT,
    "courierEnvironment" TEXT NOT NULL DEFAULT 'sandbox',
    "courierApiKeySealed" TEXT,
    "courierApiKeyHint" TEXT,
    "courierApiKeySetAt" TIMESTAMP(3),
    "courierCheckedAt" TIMESTAMP(3),
    "courierCheckError" TEXT,
    "autoSend" BOOLEAN NOT NULL DEFAULT false,
    "paymentCodeCod" TEXT,
    "paymentCodePrepaid" TEXT,
    "preparationMinutes" INTEGER NOT NULL DEFAULT 120,
    "notifyCustomer" BOOLEAN NOT NULL DEFAULT true,
    "markCodPaid" BOOLEAN NOT NULL DEFAULT false,
    "courierWebhookToken" TEXT,
    "courierWebhookSecretSealed" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "ShopSettings_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "CourierMasterData" (
    "id" TEXT NOT NULL,
    "shop" TEXT NOT NULL,
    "environment" TEXT NOT NULL,
    "governances" TEXT NOT NULL,
    "areas" TEXT NOT NULL,
    "fetchedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "CourierMasterData_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "ComplianceRequest" (
    "id" TEXT NOT NULL,
    "shop" TEXT NOT NULL,
    "topic" TEXT NOT NULL,
    "webhookId" TEXT NOT NULL,
    "customerId" TEXT,
    "orderIds" TEXT NOT NULL DEFAULT '[]',
    "receivedAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "completedAt" TIMESTAMP(3),
    "outcome" TEXT,

    CONSTRAINT "ComplianceRequest_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "PickupLocation" (
    "id" TEXT NOT NULL,
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
    "latitude" DOUBLE PRECISION,
    "longitude" DOUBLE PRECISION,
    "confirmedAt" TIMESTAMP(3) NOT NULL,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "PickupLocation_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "AreaOverride" (
    "id" TEXT NOT NULL,
    "shop" TEXT NOT NULL,
    "spelling" TEXT NOT NULL,
    "governorate" TEXT NOT NULL,
    "area" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "AreaOverride_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "Delivery" (
    "id" TEXT NOT NULL,
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
    "trackingPushedAt" TIMESTAMP(3),
    "courierStatusAt" TIMESTAMP(3),
    "shopifyEventStatus" TEXT,
    "syncAt" TIMESTAMP(3),
    "trackedAt" TIMESTAMP(3),
    "paidMarkedAt" TIMESTAMP(3),
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "nextAttemptAt" TIMESTAMP(3),
    "leaseOwner" TEXT,
    "leaseExpiresAt" TIMESTAMP(3),
    "lastError" TEXT,
    "unknownSince" TIMESTAMP(3),
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "Delivery_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "DeliveryEvent" (
    "id" TEXT NOT NULL,
    "shop" TEXT NOT NULL,
    "deliveryId" TEXT NOT NULL,
    "at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "kind" TEXT NOT NULL,
    "message" TEXT NOT NULL,
    "data" TEXT,

    CONSTRAINT "DeliveryEvent_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "CourierStatusMapping" (
    "id" TEXT NOT NULL,
    "shop" TEXT NOT NULL,
    "code" TEXT NOT NULL,
    "name" TEXT,
    "state" TEXT,
    "shopifyStatus" TEXT,
    "source" TEXT NOT NULL,
    "lastSeenAt" TIMESTAMP(3),
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "CourierStatusMapping_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "ProcessedWebhook" (
    "shop" TEXT NOT NULL,
    "webhookId" TEXT NOT NULL,
    "topic" TEXT NOT NULL,
    "receivedAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "ProcessedWebhook_pkey" PRIMARY KEY ("shop","webhookId")
);

-- CreateIndex
CREATE INDEX "Session_shop_idx" ON "Session"("shop");

-- CreateIndex
CREATE UNIQUE INDEX "ShopSettings_shop_key" ON "ShopSettings"("shop");

-- CreateIndex
CREATE UNIQUE INDEX "ShopSettings_courierWebhookToken_key" ON "ShopSettings"("courierWebhookToken");

-- CreateIndex
CREATE UNIQUE INDEX "CourierMasterData_shop_environment_key" ON "CourierMasterData"("shop", "environment");

-- CreateIndex
CREATE INDEX "ComplianceRequest_shop_idx" ON "ComplianceRequest"("shop");

-- CreateIndex
CREATE UNIQUE INDEX "ComplianceRequest_shop_webhookId_key" ON "ComplianceRequest"("shop", "webhookId");

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
CREATE INDEX "Delivery_syncAt_idx" ON "Delivery"("syncAt");

-- CreateIndex
CREATE INDEX "Delivery_shop_courierOrderId_idx" ON "Delivery"("shop", "courierOrderId");

-- CreateIndex
CREATE UNIQUE INDEX "Delivery_shop_fulfillmentId_key" ON "Delivery"("shop", "fulfillmentId");

-- CreateIndex
CREATE UNIQUE INDEX "Delivery_shop_reference_key" ON "Delivery"("shop", "reference");

-- CreateIndex
CREATE INDEX "DeliveryEvent_deliveryId_at_idx" ON "DeliveryEvent"("deliveryId", "at");

-- CreateIndex
CREATE INDEX "DeliveryEvent_shop_idx" ON "DeliveryEvent"("shop");

-- CreateIndex
CREATE UNIQUE INDEX "CourierStatusMapping_shop_code_key" ON "CourierStatusMapping"("shop", "code");

-- AddForeignKey
ALTER TABLE "DeliveryEvent" ADD CONSTRAINT "DeliveryEvent_deliveryId_fkey" FOREIGN KEY ("deliveryId") REFERENCES "Delivery"("id") ON DELETE CASCADE ON UPDATE CASCADE;

