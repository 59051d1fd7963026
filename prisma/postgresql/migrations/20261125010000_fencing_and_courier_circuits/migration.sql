-- AlterTable
ALTER TABLE "Delivery" ADD COLUMN     "leaseGeneration" INTEGER NOT NULL DEFAULT 0,
ADD COLUMN     "notInHistorySince" TIMESTAMP(3);

-- CreateTable
CREATE TABLE "CourierCircuit" (
    "shop" TEXT NOT NULL,
    "environment" TEXT NOT NULL,
    "circuit" TEXT NOT NULL,
    "state" TEXT NOT NULL DEFAULT 'closed',
    "failures" INTEGER NOT NULL DEFAULT 0,
    "opens" INTEGER NOT NULL DEFAULT 0,
    "openUntil" TIMESTAMP(3),
    "trialUntil" TIMESTAMP(3),
    "lastError" TEXT,
    "version" INTEGER NOT NULL DEFAULT 0,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "CourierCircuit_pkey" PRIMARY KEY ("shop","environment","circuit")
);

