-- AlterTable
ALTER TABLE "ShopSettings" ADD COLUMN     "exceptionsReadAt" TIMESTAMP(3),
ADD COLUMN     "markPaidOnSettlement" BOOLEAN NOT NULL DEFAULT false,
ADD COLUMN     "statementColumns" TEXT;

-- AlterTable
ALTER TABLE "Delivery" ADD COLUMN     "settledAt" TIMESTAMP(3),
ADD COLUMN     "settlementId" TEXT;

-- CreateTable
CREATE TABLE "Settlement" (
    "id" TEXT NOT NULL,
    "shop" TEXT NOT NULL,
    "source" TEXT NOT NULL,
    "fileName" TEXT,
    "reference" TEXT,
    "receivedOn" TEXT NOT NULL,
    "firstDay" TEXT,
    "lastDay" TEXT,
    "lineCount" INTEGER NOT NULL,
    "statementFils" BIGINT NOT NULL,
    "expectedFils" BIGINT NOT NULL,
    "differences" INTEGER NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "Settlement_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "SettlementLine" (
    "id" TEXT NOT NULL,
    "shop" TEXT NOT NULL,
    "settlementId" TEXT NOT NULL,
    "line" INTEGER,
    "courierOrderNumber" TEXT NOT NULL,
    "amountFils" INTEGER NOT NULL,
    "day" TEXT,
    "deliveryId" TEXT,
    "difference" TEXT,
    "expectedFils" INTEGER,

    CONSTRAINT "SettlementLine_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "SettlementGap" (
    "id" TEXT NOT NULL,
    "shop" TEXT NOT NULL,
    "settlementId" TEXT NOT NULL,
    "deliveryId" TEXT NOT NULL,
    "courierOrderNumber" TEXT NOT NULL,
    "expectedFils" INTEGER NOT NULL,

    CONSTRAINT "SettlementGap_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "CourierException" (
    "id" TEXT NOT NULL,
    "shop" TEXT NOT NULL,
    "environment" TEXT NOT NULL,
    "key" TEXT NOT NULL,
    "courierOrderId" TEXT,
    "deliveryId" TEXT,
    "type" TEXT,
    "description" TEXT,
    "happenedAt" TEXT,
    "raw" TEXT NOT NULL,
    "firstSeenAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "resolvedAt" TIMESTAMP(3),

    CONSTRAINT "CourierException_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "FlowEvent" (
    "id" TEXT NOT NULL,
    "shop" TEXT NOT NULL,
    "trigger" TEXT NOT NULL,
    "payload" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "nextAttemptAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "sentAt" TIMESTAMP(3),
    "lastError" TEXT,

    CONSTRAINT "FlowEvent_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "Settlement_shop_createdAt_idx" ON "Settlement"("shop", "createdAt");

-- CreateIndex
CREATE INDEX "SettlementLine_settlementId_idx" ON "SettlementLine"("settlementId");

-- CreateIndex
CREATE INDEX "SettlementLine_shop_deliveryId_idx" ON "SettlementLine"("shop", "deliveryId");

-- CreateIndex
CREATE INDEX "SettlementGap_settlementId_idx" ON "SettlementGap"("settlementId");

-- CreateIndex
CREATE INDEX "SettlementGap_shop_deliveryId_idx" ON "SettlementGap"("shop", "deliveryId");

-- CreateIndex
CREATE INDEX "CourierException_shop_deliveryId_idx" ON "CourierException"("shop", "deliveryId");

-- CreateIndex
CREATE INDEX "CourierException_shop_resolvedAt_idx" ON "CourierException"("shop", "resolvedAt");

-- CreateIndex
CREATE UNIQUE INDEX "CourierException_shop_key_key" ON "CourierException"("shop", "key");

-- CreateIndex
CREATE INDEX "FlowEvent_sentAt_nextAttemptAt_idx" ON "FlowEvent"("sentAt", "nextAttemptAt");

-- CreateIndex
CREATE INDEX "FlowEvent_shop_idx" ON "FlowEvent"("shop");

-- CreateIndex
CREATE INDEX "Delivery_shop_settlementId_idx" ON "Delivery"("shop", "settlementId");

-- AddForeignKey
ALTER TABLE "SettlementLine" ADD CONSTRAINT "SettlementLine_settlementId_fkey" FOREIGN KEY ("settlementId") REFERENCES "Settlement"("id") ON DELETE CASCADE ON UPDATE CASCADE;

