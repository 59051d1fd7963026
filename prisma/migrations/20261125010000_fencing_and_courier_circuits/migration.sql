-- CreateTable
CREATE TABLE "CourierCircuit" (
    "shop" TEXT NOT NULL,
    "environment" TEXT NOT NULL,
    "circuit" TEXT NOT NULL,
    "state" TEXT NOT NULL DEFAULT 'closed',
    "failures" INTEGER NOT NULL DEFAULT 0,
    "opens" INTEGER NOT NULL DEFAULT 0,
    "openUntil" DATETIME,
    "trialUntil" DATETIME,
    "lastError" TEXT,
    "version" INTEGER NOT NULL DEFAULT 0,
    "updatedAt" DATETIME NOT NULL,

    PRIMARY KEY ("shop", "environment", "circuit")
);

-- AlterTable: new columns at the end, without rebuilding the table (SQLite adds a NOT NULL
-- column with a constant default in place).
ALTER TABLE "Delivery" ADD COLUMN "leaseGeneration" INTEGER NOT NULL DEFAULT 0;
ALTER TABLE "Delivery" ADD COLUMN "notInHistorySince" DATETIME;
