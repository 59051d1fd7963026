-- The language the customer shopped in (the order's customer locale), so the shoppers' tracking
-- page opens in it (issue 14). A new nullable column is added in place.
ALTER TABLE "Delivery" ADD COLUMN "customerLanguage" TEXT;
