-- Cancel with or without the Shopify fulfillment, and sending again (ADR 0044): the merchant's
-- choice recorded with the cancellation, and when the fulfillment was cancelled in Shopify.
-- AlterTable
ALTER TABLE "Delivery" ADD COLUMN     "cancelFulfillment" BOOLEAN NOT NULL DEFAULT false,
ADD COLUMN     "shopifyCancelledAt" TIMESTAMP(3);
