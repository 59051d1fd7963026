import { z } from "zod";
import { BULK_LIMIT, SEND_BATCH } from "../domain/limits";
import { SHOPPER_STATUSES } from "../domain/shopper-order";
import { DELIVERY_STATES } from "../domain/states";

/**
 * What the admin extensions and the app's `api.*` routes say to each other (docs/api-contract.md).
 * The routes validate every request with these schemas and build every answer to their types;
 * the extensions import the types only (`import type`), so none of zod reaches their bundles.
 */

/** The most orders one send request carries: the app's Send page sends the same batches. */
export const SEND_BATCH_LIMIT = SEND_BATCH;
/** The most deliveries one labels document prints (a bulk send's limit). */
export const LABELS_LIMIT = BULK_LIMIT;

const orderGid = z
  .string()
  .regex(
    /^gid:\/\/shopify\/Order\/\d{1,20}$/,
    "Name orders by their Shopify id (gid://shopify/Order/…).",
  );
const deliveryId = z.string().regex(/^[a-z0-9]{20,40}$/, "Unknown delivery.");

/** `/api/orders/:orderId…`: the order's numeric id, as in the admin's order URL. */
export const orderIdParam = z
  .string()
  .regex(/^\d{1,20}$/, "Name the order by its numeric Shopify id.")
  .transform((id) => `gid://shopify/Order/${id}`);

export const deliveryIdParam = deliveryId;

// --- GET /api/orders/:orderId ------------------------------------------------------------------

export const deliveryView = z.object({
  id: z.string(),
  state: z.enum(DELIVERY_STATES),
  /** The state in the merchant's words. */
  stateLabel: z.string(),
  /** Its badge's tone, the one the app's own pages give the state (one map for both). */
  tone: z.enum(["critical", "warning", "success", "info", "neutral"]),
  /** What is wrong, in words, when the delivery waits for the merchant or failed. */
  problem: z.string().nullable(),
  courierOrderNumber: z.string().nullable(),
  trackingUrl: z.string().nullable(),
  /** "12.500 KWD", or null when the driver collects nothing. */
  cashToCollect: z.string().nullable(),
  /** A cancellation is recorded and waits to be carried out. */
  cancelRequested: z.boolean(),
  actions: z.object({
    cancel: z.boolean(),
    fixAddress: z.boolean(),
    printLabel: z.boolean(),
  }),
  /** The app's page where the address is fixed, when it waits for one. */
  fixAddressPath: z.string().nullable(),
});
export type DeliveryView = z.infer<typeof deliveryView>;

export const orderDeliveriesResponse = z.object({
  orderId: z.string(),
  orderName: z.string().nullable(),
  deliveries: z.array(deliveryView),
  /** The order can be sent now ("Send to courier"); else why not. */
  send: z.object({ possible: z.boolean(), reason: z.string().nullable() }),
});
export type OrderDeliveriesResponse = z.infer<typeof orderDeliveriesResponse>;

// --- GET /api/orders/:orderId/quote ------------------------------------------------------------

export const quoteResponse = z.discriminatedUnion("ok", [
  z.object({
    ok: z.literal(true),
    price: z.number().nullable(),
    currency: z.string().nullable(),
    basis: z.object({
      weightKg: z.number(),
      weightKnown: z.boolean(),
      value: z.number(),
      cashOnDelivery: z.boolean(),
      /** The pickup location and its courier area. */
      from: z.string(),
      to: z.string(),
    }),
  }),
  z.object({ ok: z.literal(false), error: z.string() }),
]);
export type QuoteResponse = z.infer<typeof quoteResponse>;

// --- POST /api/send ----------------------------------------------------------------------------

export const sendRequest = z.object({
  orderIds: z
    .array(orderGid)
    .min(1, "Name at least one order.")
    .max(SEND_BATCH_LIMIT, `Send at most ${SEND_BATCH_LIMIT} orders per request.`),
});
export type SendRequest = z.infer<typeof sendRequest>;

export const sendOutcome = z.object({
  orderId: z.string(),
  orderName: z.string().nullable(),
  ok: z.boolean(),
  deliveryId: z.string().nullable(),
  error: z.string().optional(),
});
export const sendResponse = z.object({ outcomes: z.array(sendOutcome) });
export type SendOutcomeView = z.infer<typeof sendOutcome>;
export type SendResponse = z.infer<typeof sendResponse>;

// --- GET /api/send/status?ids= -----------------------------------------------------------------

export const sendStatusQuery = z.object({
  ids: z
    .string()
    .max(10_000)
    .transform((ids) => ids.split(",").filter(Boolean))
    .pipe(z.array(deliveryId).min(1, "Name at least one delivery.").max(LABELS_LIMIT)),
});
export const sendStatusResponse = z.object({
  statuses: z.array(
    z.object({
      deliveryId: z.string(),
      orderId: z.string(),
      settled: z.boolean(),
      progress: z.enum([
        "created",
        "rejected",
        "needs_address",
        "needs_review",
        "needs_attention",
        "not_sent",
        "cancelled",
        "in_progress",
      ]),
      message: z.string(),
    }),
  ),
});
export type SendStatusResponse = z.infer<typeof sendStatusResponse>;

// --- POST /api/deliveries/:id/cancel -----------------------------------------------------------

/**
 * The body, optional: `fulfillment: "cancel"` cancels the Shopify fulfillment too once the
 * delivery is cancelled, so the order can be sent again (ADR 0044); without it, the order stays
 * fulfilled in Shopify.
 */
export const cancelRequest = z.object({
  fulfillment: z.enum(["cancel", "keep"]).default("keep"),
});
export type CancelRequest = z.input<typeof cancelRequest>;

export const cancelResponse = z.union([
  z.object({ ok: z.literal(true), state: z.literal("cancelled") }),
  z.object({ ok: z.literal(true), state: z.literal("requested"), message: z.string() }),
  z.object({ ok: z.literal(false), error: z.string() }),
]);
export type CancelResponse = z.infer<typeof cancelResponse>;

// --- GET /api/labels?orderIds=…|deliveryIds=…&size= (text/html) --------------------------------

const commaList = (item: z.ZodString) =>
  z
    .string()
    .max(20_000)
    .transform((list) => list.split(",").filter(Boolean))
    .pipe(z.array(item).max(LABELS_LIMIT, `Print at most ${LABELS_LIMIT} labels at once.`));

export const labelsQuery = z
  .object({
    orderIds: commaList(orderGid).optional(),
    deliveryIds: commaList(deliveryId).optional(),
    size: z.enum(["A6", "4x6"], { error: "Choose the label size A6 or 4x6." }).default("A6"),
  })
  .refine((q) => (q.orderIds?.length ?? 0) + (q.deliveryIds?.length ?? 0) > 0, {
    message: "Name the orders or deliveries to print labels for.",
  });
export type LabelsQuery = z.input<typeof labelsQuery>;

// --- GET /api/shopper/orders/:orderId?confirmation=…&surface=… ---------------------------------
// The shopper's blocks on Shopify's thank-you and order status pages (session token of the
// checkout or the customer account, not the admin's).

export const shopperOrderQuery = z.object({
  confirmation: z
    .string()
    .trim()
    .regex(/^[A-Za-z0-9]{4,32}$/, "Name the order's confirmation number."),
  surface: z.enum(["thank-you", "order-status"]),
});

export const shopperOrderResponse = z.object({
  ask: z
    .object({
      checking: z.boolean(),
      open: z.boolean(),
      questions: z.array(z.enum(["address", "cash"])),
      link: z.string().url().nullable(),
    })
    .nullable(),
  delivery: z
    .object({
      status: z.enum(SHOPPER_STATUSES),
      /** "2026-11-30": the day the parcel is expected, while it is on its way. */
      expectedDay: z
        .string()
        .regex(/^\d{4}-\d{2}-\d{2}$/)
        .nullable(),
      trackingLink: z.string().url().nullable(),
    })
    .nullable(),
});
export type ShopperOrderResponse = z.infer<typeof shopperOrderResponse>;

// --- Every error -------------------------------------------------------------------------------

export const apiError = z.object({ error: z.string() });
export type ApiError = z.infer<typeof apiError>;
