-- CreateTable
CREATE TABLE "CheckoutRateSettings" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "shop" TEXT NOT NULL,
    "enabled" BOOLEAN NOT NULL DEFAULT false,
    "carrierServiceId" TEXT,
    "serviceProblem" TEXT,
    "serviceProblemAt" DATETIME,
    "serviceProblemDetail" TEXT,
    "serviceCheckedAt" DATETIME,
    "callbackToken" TEXT NOT NULL,
    "fallbackFils" INTEGER NOT NULL DEFAULT 2000,
    "marginFils" INTEGER NOT NULL DEFAULT 0,
    "marginBasisPoints" INTEGER NOT NULL DEFAULT 0,
    "freeAboveFils" INTEGER,
    "hiddenAreas" TEXT NOT NULL DEFAULT '[]',
    "cutoffMinutes" INTEGER NOT NULL DEFAULT 840,
    "preparationDays" INTEGER NOT NULL DEFAULT 0,
    "holidays" TEXT NOT NULL DEFAULT '[]',
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" DATETIME NOT NULL
);

-- CreateTable
CREATE TABLE "AreaPrice" (
    "shop" TEXT NOT NULL,
    "environment" TEXT NOT NULL,
    "originAreaId" INTEGER NOT NULL,
    "areaId" INTEGER NOT NULL,
    "governanceId" INTEGER NOT NULL,
    "bandKg" INTEGER NOT NULL,
    "priceFils" INTEGER NOT NULL,
    "fetchedAt" DATETIME NOT NULL,

    PRIMARY KEY ("shop", "environment", "originAreaId", "areaId", "bandKg")
);

-- CreateTable
CREATE TABLE "RateRequestTally" (
    "shop" TEXT NOT NULL,
    "day" TEXT NOT NULL,
    "area" TEXT NOT NULL,
    "outcome" TEXT NOT NULL,
    "count" INTEGER NOT NULL DEFAULT 0,

    PRIMARY KEY ("shop", "day", "area", "outcome")
);

-- CreateIndex
CREATE UNIQUE INDEX "CheckoutRateSettings_shop_key" ON "CheckoutRateSettings"("shop");

-- CreateIndex
CREATE UNIQUE INDEX "CheckoutRateSettings_callbackToken_key" ON "CheckoutRateSettings"("callbackToken");

-- CreateIndex
CREATE INDEX "RateRequestTally_shop_day_idx" ON "RateRequestTally"("shop", "day");

