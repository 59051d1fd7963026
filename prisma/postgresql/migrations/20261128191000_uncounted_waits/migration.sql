-- Long waits (issue 24): since when, and for what, a delivery waits without counting failures
-- (Shopify's budget or access, the courier), so that its page can say so after half an hour.
-- AlterTable
ALTER TABLE "Delivery" ADD COLUMN     "waitingSince" TIMESTAMP(3),
ADD COLUMN     "waitingFor" TEXT;
