import { z } from "zod";
import { jsonColumn } from "./json-column";

/**
 * The JSON columns of issue 16's records (ADRs 0036, 0038, 0039), one codec each, decoded where
 * rows enter the app (the models).
 */

/** `ShopSettings.statementColumns`: the statement's column titles as the merchant mapped them. */
export const statementColumnsSchema = z.object({
  orderNumber: z.string().min(1),
  amount: z.string().min(1),
  date: z.string().min(1).nullable(),
});
export const statementColumnsColumn = jsonColumn(
  "ShopSettings.statementColumns",
  statementColumnsSchema,
);

/** `FlowEvent.payload`: the body sent to flowTriggerReceive, field by field. */
export const flowPayloadSchema = z.record(
  z.string(),
  z.union([z.string(), z.number(), z.boolean(), z.null()]),
);
export type FlowPayload = z.output<typeof flowPayloadSchema>;
export const flowPayloadColumn = jsonColumn("FlowEvent.payload", flowPayloadSchema);

/**
 * `CourierException.raw`: the courier's record as it came. Its shape is undocumented, so any
 * object is kept whole; the few fields the pages read are picked from it by name.
 */
export const courierExceptionRawSchema = z.record(z.string(), z.unknown());
export const courierExceptionRawColumn = jsonColumn(
  "CourierException.raw",
  courierExceptionRawSchema,
);
