-- CreateTable
CREATE TABLE "FulfillmentCheck" (
    "shop" TEXT NOT NULL PRIMARY KEY,
    "checkedUntil" DATETIME NOT NULL,
    "recoverFrom" DATETIME NOT NULL,
    "nextCheckAt" DATETIME NOT NULL,
    "lastCheckAt" DATETIME,
    "lastError" TEXT,
    "updatedAt" DATETIME NOT NULL
);

-- CreateIndex
CREATE INDEX "FulfillmentCheck_nextCheckAt_idx" ON "FulfillmentCheck"("nextCheckAt");

