import { z } from "zod";
import { asInt, asNumber, asStatus, asText, jsonObject, listOf, pickField } from "./field-lookup";

/*
 * Reply payloads (`results` of the envelope). Where the document gives fields (order creation
 * result, governance) they are checked exactly and extra fields are kept. Everything else is
 * undocumented: the record is kept whole as `raw`, and the few fields the app needs are looked up
 * under the names a courier plausibly uses (`areaId`, `id`, `AreaID`...), null when absent
 * (field-lookup.ts). The bulk create's per-order reply is read in bulk-result.ts.
 */

// ISO 8601 local date-time without offset, as the document writes `createdAt`.
const localDateTime = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,9})?$/, "expected YYYY-MM-DDTHH:MM:SS");

/** Documented: the result of `POST /api/orders/create`. */
export const createOrderResultSchema = z.looseObject({
  orderId: z.string().min(1),
  orderNumber: z.string(),
  status: z.string(),
  createdAt: localDateTime,
});
export type CreateOrderResult = z.output<typeof createOrderResultSchema>;

/** Documented: one governance of `GET /api/master/governances/{lang}`. */
export const governanceSchema = z.looseObject({
  governanceId: z.int(),
  governanceName: z.string(),
});
export type Governance = z.output<typeof governanceSchema>;
export const governancesSchema = z.array(governanceSchema);

/** An area of a governance (shape undocumented). */
export interface Area {
  areaId: number | null;
  areaName: string | null;
  governanceId: number | null;
  raw: Record<string, unknown>;
}
export const areaSchema = jsonObject.transform((raw): Area => ({
  areaId: asInt(pickField(raw, ["areaId", "id", "areaCode"])),
  areaName: asText(
    pickField(raw, [
      "areaName",
      "name",
      "areaNameAr",
      "nameAr",
      "arabicName",
      "areaNameEn",
      "nameEn",
      "title",
    ]),
  ),
  governanceId: asInt(pickField(raw, ["governanceId", "governorateId", "govId", "governance"])),
  raw,
}));
export const areasSchema = listOf(areaSchema);

/** A vehicle type (shape undocumented). */
export interface VehicleType {
  vehicleTypeId: number | null;
  name: string | null;
  raw: Record<string, unknown>;
}
export const vehicleTypesSchema = listOf(
  jsonObject.transform((raw): VehicleType => ({
    vehicleTypeId: asInt(pickField(raw, ["vehicleTypeId", "id", "typeId"])),
    name: asText(pickField(raw, ["vehicleTypeName", "name", "nameAr", "nameEn", "title"])),
    raw,
  })),
);

/** An order status of the master data (shape undocumented). */
export interface OrderStatus {
  code: string | null;
  name: string | null;
  raw: Record<string, unknown>;
}
export const orderStatusesSchema = listOf(
  jsonObject.transform((raw): OrderStatus => ({
    code: asText(pickField(raw, ["statusCode", "code", "status", "key", "statusId", "id"])),
    name: asText(
      pickField(raw, ["statusName", "name", "nameAr", "nameEn", "title", "description"]),
    ),
    raw,
  })),
);

/** One order as `get`, `history` and `cancel` return it: beyond the create result, undocumented. */
export interface OrderRecord {
  orderId: string | null;
  orderNumber: string | null;
  status: string | null;
  createdAt: string | null;
  raw: Record<string, unknown>;
}
export const toOrderRecord = (raw: Record<string, unknown>): OrderRecord => ({
  orderId: asText(pickField(raw, ["orderId", "id", "orderGuid"])),
  orderNumber: asText(pickField(raw, ["orderNumber", "orderNo", "number", "trackingNumber"])),
  status: asStatus(pickField(raw, ["status", "statusCode", "orderStatus", "currentStatus"])),
  createdAt: asText(pickField(raw, ["createdAt", "createdDate", "creationDate", "created"])),
  raw,
});
export const orderRecordSchema = jsonObject.transform(toOrderRecord);
export const orderListSchema = listOf(orderRecordSchema);

/** The reply to a cancel: anything (even nothing); the order's fields when it gave them. */
export const cancelResultSchema = z
  .unknown()
  .transform((value): OrderRecord & { rawResults: unknown } => {
    const raw =
      typeof value === "object" && value !== null && !Array.isArray(value)
        ? (value as Record<string, unknown>)
        : {};
    return { ...toOrderRecord(raw), rawResults: value };
  });
export type CancelResult = z.output<typeof cancelResultSchema>;

/** One step of an order's tracking. */
export interface TrackingEvent {
  status: string | null;
  at: string | null;
  raw: Record<string, unknown>;
}
const trackingEvent = jsonObject.transform((raw): TrackingEvent => ({
  status: asStatus(pickField(raw, ["status", "statusCode", "code", "event"])),
  at: asText(pickField(raw, ["at", "timestamp", "date", "createdAt", "changedAt", "time"])),
  raw,
}));
const EVENT_KEYS = [
  "history",
  "events",
  "statusHistory",
  "trackingHistory",
  "tracking",
  "timeline",
  "steps",
];

/** Tracking: the current status and the steps so far (shape undocumented). */
export interface Tracking {
  orderId: string | null;
  status: string | null;
  events: TrackingEvent[];
  raw: unknown;
}
export const trackingSchema = z.union([
  z.array(trackingEvent).transform((events): Tracking => ({
    orderId: null,
    status: events.at(-1)?.status ?? null,
    events,
    raw: events.map((e) => e.raw),
  })),
  jsonObject.transform((raw, ctx): Tracking => {
    const found = pickField(raw, EVENT_KEYS);
    let events: TrackingEvent[] = [];
    if (found !== undefined) {
      const parsed = z.array(trackingEvent).safeParse(found);
      if (!parsed.success) {
        ctx.addIssue({ code: "custom", message: "the tracking steps are not a list of objects" });
        return z.NEVER;
      }
      events = parsed.data;
    }
    return {
      orderId: asText(pickField(raw, ["orderId", "id"])),
      status:
        asStatus(pickField(raw, ["status", "currentStatus", "statusCode"])) ??
        events.at(-1)?.status ??
        null,
      events,
      raw,
    };
  }),
]);

/** A price quote (shape undocumented). */
export interface PriceQuote {
  price: number | null;
  currency: string | null;
  raw: unknown;
}
export const priceQuoteSchema = z.union([
  z.number().transform((price): PriceQuote => ({ price, currency: null, raw: price })),
  jsonObject.transform((raw): PriceQuote => ({
    price: asNumber(
      pickField(raw, [
        "price",
        "totalPrice",
        "deliveryFee",
        "deliveryPrice",
        "fee",
        "amount",
        "cost",
        "total",
      ]),
    ),
    currency: asText(pickField(raw, ["currency", "currencyCode"])),
    raw,
  })),
]);

/** A customer exception: a failed attempt, an address problem... (shape undocumented). */
export interface CourierException {
  orderId: string | null;
  type: string | null;
  description: string | null;
  createdAt: string | null;
  raw: Record<string, unknown>;
}
export const exceptionListSchema = listOf(
  jsonObject.transform((raw): CourierException => ({
    orderId: asText(pickField(raw, ["orderId", "order"])),
    type: asText(pickField(raw, ["type", "exceptionType", "code", "kind"])),
    description: asText(pickField(raw, ["description", "reason", "message", "details"])),
    createdAt: asText(pickField(raw, ["createdAt", "date", "at", "timestamp"])),
    raw,
  })),
);

/** The corporate orders report (shape undocumented). */
export interface CorporateReport {
  totalOrders: number | null;
  byStatus: Record<string, number> | null;
  raw: Record<string, unknown>;
}
export const reportSchema = jsonObject.transform((raw): CorporateReport => {
  const counts = pickField(raw, ["byStatus", "statusCounts", "countsByStatus", "statuses"]);
  let byStatus: Record<string, number> | null = null;
  if (typeof counts === "object" && counts !== null && !Array.isArray(counts)) {
    // fromEntries defines properties, so a status named "__proto__" stays a plain key.
    byStatus = Object.fromEntries(
      Object.entries(counts).flatMap(([status, n]) => {
        const count = asInt(n);
        return count === null ? [] : [[status, count] as const];
      }),
    );
  }
  return {
    totalOrders: asInt(pickField(raw, ["totalOrders", "total", "count", "ordersCount"])),
    byStatus,
    raw,
  };
});
