-- CreateTable
CREATE TABLE "FulfillmentCheck" (
    "shop" TEXT NOT NULL,
    "checkedUntil" TIMESTAMP(3) NOT NULL,
    "recoverFrom" TIMESTAMP(3) NOT NULL,
    "nextCheckAt" TIMESTAMP(3) NOT NULL,
    "lastCheckAt" TIMESTAMP(3),
    "lastError" TEXT,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "FulfillmentCheck_pkey" PRIMARY KEY ("shop")
);

-- CreateIndex
CREATE INDEX "FulfillmentCheck_nextCheckAt_idx" ON "FulfillmentCheck"("nextCheckAt");

