-- Large orders (issue 24): a fulfillment's line items read so far while Shopify's cost budget
-- holds the rest of the read back, for the next attempt to go on from.
-- AlterTable
ALTER TABLE "Delivery" ADD COLUMN "lineItemsRead" TEXT;
