import { z } from "zod";

/*
 * Reply payloads (`results` of the envelope). Where the document gives fields (order creation
 * result, governance) they are checked exactly and extra fields are kept. Everything else is
 * undocumented: the record is kept whole as `raw`, and the few fields the app needs are looked up
 * under the names a courier plausibly uses (`areaId`, `id`, `AreaID`...), null when absent.
 */

// A JSON object, passed through untouched (own `__proto__` keys included).
const jsonObject = z.custom<Record<string, unknown>>(
  (value) => typeof value === "object" && value !== null && !Array.isArray(value),
  { error: "expected an object" },
);

const keyOf = (name: string) => name.toLowerCase().replace(/[_\-\s]/g, "");

const normalizedNames = new Map<string, string>();
function normalizedName(name: string): string {
  let key = normalizedNames.get(name);
  if (key === undefined) {
    key = keyOf(name);
    normalizedNames.set(name, key);
  }
  return key;
}

const present = (value: unknown) => value !== undefined && value !== null;

/**
 * The first of `names`, in that order of preference, present (not null) in `raw`, with keys
 * compared without case, `_` or `-`.
 */
export function pickField(raw: Record<string, unknown>, names: readonly string[]): unknown {
  // The preferred name spelt exactly is the common case, and needs no normalizing.
  const preferred = names[0];
  if (preferred !== undefined && Object.hasOwn(raw, preferred) && present(raw[preferred]))
    return raw[preferred];
  const keys = Object.keys(raw);
  const normalized = keys.map(keyOf);
  for (const name of names) {
    const wanted = normalizedName(name);
    for (let i = 0; i < keys.length; i++) {
      if (normalized[i] !== wanted) continue;
      const value = raw[keys[i] as string];
      if (present(value)) return value;
    }
  }
  return undefined;
}

function asInt(value: unknown): number | null {
  if (typeof value === "number" && Number.isSafeInteger(value)) return value;
  if (typeof value === "string" && /^\s*-?\d{1,15}\s*$/.test(value)) return Number(value);
  return null;
}

function asText(value: unknown): string | null {
  if (typeof value === "string") return value.trim() === "" ? null : value;
  if (typeof value === "number" && Number.isFinite(value)) return String(value);
  return null;
}

function asNumber(value: unknown): number | null {
  if (typeof value === "number" && Number.isFinite(value)) return value;
  if (typeof value === "string" && /^\s*-?\d+(\.\d+)?\s*$/.test(value)) return Number(value);
  return null;
}

// A status may be a code, or an object such as `{ code, name }`.
function asStatus(value: unknown): string | null {
  if (typeof value === "object" && value !== null && !Array.isArray(value)) {
    return asText(
      pickField(value as Record<string, unknown>, ["code", "statusCode", "status", "name"]),
    );
  }
  return asText(value);
}

const LIST_KEYS = ["items", "data", "list", "records", "results", "orders", "rows"];

// An array, or an object wrapping exactly the array (`{ items: [...] }`).
function listOf<T extends z.ZodType>(element: T) {
  return z.preprocess(
    (value) => {
      if (Array.isArray(value) || typeof value !== "object" || value === null) return value;
      const inner = pickField(value as Record<string, unknown>, LIST_KEYS);
      return Array.isArray(inner) ? inner : value;
    },
    z.array(element, { error: "expected a list" }),
  );
}

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
const toOrderRecord = (raw: Record<string, unknown>): OrderRecord => ({
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

/** One entry of a bulk create's reply. */
export type BulkItemResult =
  | {
      index: number;
      outcome: "created";
      orderId: string;
      orderNumber: string | null;
      status: string | null;
      createdAt: string | null;
      raw: Record<string, unknown>;
    }
  | { index: number; outcome: "rejected"; message: string; raw: Record<string, unknown> }
  | { index: number; outcome: "unknown"; message: string; raw: Record<string, unknown> | null };

export interface BulkCreateResult {
  items: BulkItemResult[];
  created: number;
  rejected: number;
  unknown: number;
}

// Where a courier puts the reason an entry failed, beside or instead of `success: false`.
const ERROR_KEYS = ["error", "errorMessage", "errors"];

function errorText(value: unknown): string | null {
  if (Array.isArray(value)) {
    const parts = value.flatMap((entry) => {
      if (typeof entry !== "object" || entry === null) return asText(entry) ?? [];
      const record = entry as Record<string, unknown>;
      const message = asText(pickField(record, ["message", "error", "reason"]));
      const field = asText(pickField(record, ["field", "path", "name"]));
      return message ? [field ? `${field} ${message}` : message] : [];
    });
    return parts.length > 0 ? parts.join("; ") : null;
  }
  return asText(value);
}

/*
 * One entry of a bulk reply. Rejected only when the courier says so (`success: false`, or an
 * error field): a caller may send a rejected order again, so an entry read wrongly as rejected
 * would deliver twice. Without an order id and without a refusal the outcome is unknown, for the
 * caller to reconcile through history.
 */
function bulkItem(index: number, raw: Record<string, unknown>): BulkItemResult {
  const order = toOrderRecord(raw);
  const flag = pickField(raw, ["success", "succeeded", "ok"]);
  const error = errorText(pickField(raw, ERROR_KEYS));
  if (flag === false || (flag !== true && !order.orderId && error)) {
    const message =
      asText(pickField(raw, ["message", "reason"])) ??
      error ??
      "The courier refused this order without saying why.";
    return { index, outcome: "rejected", message, raw };
  }
  if (order.orderId) {
    return {
      index,
      outcome: "created",
      orderId: order.orderId,
      orderNumber: order.orderNumber,
      status: order.status,
      createdAt: order.createdAt,
      raw,
    };
  }
  return {
    index,
    outcome: "unknown",
    message:
      flag === true
        ? "The courier reported this order as created, but its reply gives no order id the app can read."
        : "The courier's reply neither gives this order an id nor says it failed.",
    raw,
  };
}

/**
 * The per-item reply of a bulk create, in input order. An entry counts as created only with an
 * order id and as rejected only when the courier says it failed; anything else, and an input the
 * courier said nothing about, is `unknown`, never assumed either way.
 */
export function bulkResultSchema(count: number) {
  return listOf(jsonObject).transform((entries, ctx): BulkCreateResult => {
    const items = new Map<number, BulkItemResult>();
    for (const [position, raw] of entries.entries()) {
      const index = asInt(pickField(raw, ["index", "itemIndex", "position"])) ?? position;
      if (index < 0 || index >= count || items.has(index)) {
        ctx.addIssue({
          code: "custom",
          message: `entry ${position} names input ${index}, which is out of range or repeated`,
        });
        return z.NEVER;
      }
      items.set(index, bulkItem(index, raw));
    }
    const all: BulkItemResult[] = [];
    for (let index = 0; index < count; index++) {
      all.push(
        items.get(index) ?? {
          index,
          outcome: "unknown",
          message: "The courier's reply says nothing about this order.",
          raw: null,
        },
      );
    }
    return {
      items: all,
      created: all.filter((i) => i.outcome === "created").length,
      rejected: all.filter((i) => i.outcome === "rejected").length,
      unknown: all.filter((i) => i.outcome === "unknown").length,
    };
  });
}

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
