-- The deliveries list and the dashboard (ADR 0041). The list's customer, phone and place are
-- read from the courier request by triggers, so whichever code writes "request" (the worker, a
-- retry, customers/redact) keeps them right without knowing of them.

-- AlterTable: new columns at the end, without rebuilding the table.
ALTER TABLE "Delivery" ADD COLUMN "customerName" TEXT;
ALTER TABLE "Delivery" ADD COLUMN "customerPhone" TEXT;
ALTER TABLE "Delivery" ADD COLUMN "nameKey" TEXT;
ALTER TABLE "Delivery" ADD COLUMN "nameKey2" TEXT;
ALTER TABLE "Delivery" ADD COLUMN "governanceId" INTEGER;
ALTER TABLE "Delivery" ADD COLUMN "areaId" INTEGER;

-- CreateIndex
CREATE INDEX "Delivery_shop_createdAt_id_idx" ON "Delivery"("shop", "createdAt", "id");

-- CreateIndex
CREATE INDEX "Delivery_shop_state_createdAt_id_idx" ON "Delivery"("shop", "state", "createdAt", "id");

-- CreateIndex
CREATE INDEX "Delivery_shop_state_lastMovedAt_createdAt_idx" ON "Delivery"("shop", "state", "lastMovedAt", "createdAt");

-- CreateIndex
CREATE INDEX "Delivery_shop_areaId_createdAt_id_idx" ON "Delivery"("shop", "areaId", "createdAt", "id");

-- CreateIndex
CREATE INDEX "Delivery_shop_governanceId_createdAt_id_idx" ON "Delivery"("shop", "governanceId", "createdAt", "id");

-- CreateIndex
CREATE INDEX "Delivery_shop_orderName_idx" ON "Delivery"("shop", "orderName");

-- CreateIndex
CREATE INDEX "Delivery_shop_courierOrderNumber_idx" ON "Delivery"("shop", "courierOrderNumber");

-- CreateIndex
CREATE INDEX "Delivery_shop_customerPhone_idx" ON "Delivery"("shop", "customerPhone");

-- CreateIndex
CREATE INDEX "Delivery_shop_nameKey_idx" ON "Delivery"("shop", "nameKey");

-- CreateIndex
CREATE INDEX "Delivery_shop_nameKey2_idx" ON "Delivery"("shop", "nameKey2");

-- The fields, from a request that is a JSON object with a deliveryAddress (anything else: NULL).
-- The search keys are lower-cased, with the Arabic letter variants folded as app/models/
-- delivery-list.server.ts folds what the merchant types (alef forms, teh marbuta, alef maqsura).
CREATE TRIGGER "Delivery_list_fields_insert" AFTER INSERT ON "Delivery"
WHEN NEW."request" IS NOT NULL
BEGIN
  UPDATE "Delivery" SET "request" = "request" WHERE "id" = NEW."id";
END;

CREATE TRIGGER "Delivery_list_fields_update" AFTER UPDATE OF "request" ON "Delivery"
BEGIN
  UPDATE "Delivery" SET
    "customerName" = CASE WHEN json_valid(NEW."request")
      AND json_type(NEW."request", '$.deliveryAddress.contactName') = 'text'
      THEN nullif(trim(json_extract(NEW."request", '$.deliveryAddress.contactName')), '') END,
    "customerPhone" = CASE WHEN json_valid(NEW."request")
      AND json_type(NEW."request", '$.deliveryAddress.contactPhone') = 'text'
      THEN nullif(trim(json_extract(NEW."request", '$.deliveryAddress.contactPhone')), '') END,
    "governanceId" = CASE WHEN json_valid(NEW."request")
      AND json_type(NEW."request", '$.deliveryAddress.governanceId') = 'integer'
      THEN json_extract(NEW."request", '$.deliveryAddress.governanceId') END,
    "areaId" = CASE WHEN json_valid(NEW."request")
      AND json_type(NEW."request", '$.deliveryAddress.areaId') = 'integer'
      THEN json_extract(NEW."request", '$.deliveryAddress.areaId') END
  WHERE "id" = NEW."id";
  UPDATE "Delivery" SET
    "nameKey" = replace(replace(replace(replace(replace(replace(lower("customerName"),
      'أ', 'ا'), 'إ', 'ا'), 'آ', 'ا'), 'ة', 'ه'), 'ى', 'ي'), 'ـ', '')
  WHERE "id" = NEW."id";
  UPDATE "Delivery" SET
    "nameKey2" = CASE WHEN instr("nameKey", ' ') > 0
      THEN nullif(ltrim(substr("nameKey", instr("nameKey", ' ') + 1)), '') END
  WHERE "id" = NEW."id";
END;

-- Deliveries written before this migration.
UPDATE "Delivery" SET "request" = "request" WHERE "request" IS NOT NULL;
