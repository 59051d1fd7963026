-- The deliveries list and the dashboard (ADR 0041). The list's customer, phone and place are
-- read from the courier request by a trigger, so whichever code writes "request" (the worker, a
-- retry, customers/redact) keeps them right without knowing of them.

-- AlterTable
ALTER TABLE "Delivery" ADD COLUMN     "areaId" INTEGER,
ADD COLUMN     "customerName" TEXT,
ADD COLUMN     "customerPhone" TEXT,
ADD COLUMN     "governanceId" INTEGER,
ADD COLUMN     "nameKey" TEXT,
ADD COLUMN     "nameKey2" TEXT;

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
CREATE FUNCTION "delivery_list_fields"() RETURNS trigger LANGUAGE plpgsql AS $fn$
DECLARE
  address jsonb;
  name text;
BEGIN
  NEW."customerName" := NULL;
  NEW."customerPhone" := NULL;
  NEW."governanceId" := NULL;
  NEW."areaId" := NULL;
  NEW."nameKey" := NULL;
  NEW."nameKey2" := NULL;
  IF NEW."request" IS NULL THEN
    RETURN NEW;
  END IF;
  BEGIN
    address := NEW."request"::jsonb -> 'deliveryAddress';
  EXCEPTION WHEN others THEN
    RETURN NEW;
  END;
  IF address IS NULL OR jsonb_typeof(address) <> 'object' THEN
    RETURN NEW;
  END IF;
  IF jsonb_typeof(address -> 'contactName') = 'string' THEN
    name := nullif(btrim(address ->> 'contactName'), '');
  END IF;
  IF jsonb_typeof(address -> 'contactPhone') = 'string' THEN
    NEW."customerPhone" := nullif(btrim(address ->> 'contactPhone'), '');
  END IF;
  IF jsonb_typeof(address -> 'governanceId') = 'number' THEN
    NEW."governanceId" := trunc((address ->> 'governanceId')::numeric)::integer;
  END IF;
  IF jsonb_typeof(address -> 'areaId') = 'number' THEN
    NEW."areaId" := trunc((address ->> 'areaId')::numeric)::integer;
  END IF;
  NEW."customerName" := name;
  NEW."nameKey" := replace(replace(replace(replace(replace(replace(lower(name),
    'أ', 'ا'), 'إ', 'ا'), 'آ', 'ا'), 'ة', 'ه'), 'ى', 'ي'), 'ـ', '');
  IF position(' ' IN NEW."nameKey") > 0 THEN
    NEW."nameKey2" := nullif(ltrim(substr(NEW."nameKey", position(' ' IN NEW."nameKey") + 1)), '');
  END IF;
  RETURN NEW;
END;
$fn$;

CREATE TRIGGER "Delivery_list_fields" BEFORE INSERT OR UPDATE OF "request" ON "Delivery"
FOR EACH ROW EXECUTE FUNCTION "delivery_list_fields"();

-- Deliveries written before this migration.
UPDATE "Delivery" SET "request" = "request" WHERE "request" IS NOT NULL;
