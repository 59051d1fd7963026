import { countWaitingAsks } from "../models/shopper-asks.server";
import { z } from "zod";
import type { AdminGraphql } from "../shopify/graphql";
import { fetchSendableOrderPage, ORDER_PAGE_SIZE } from "../shopify/sending";
import { BULK_LIMIT, QUOTE_LIMIT, SEND_BATCH } from "../domain/limits";
import { quoteOrder, type QuoteOutcome } from "../actions/quote.server";
import { sendOrdersToCourier, type SendOutcome } from "../actions/send.server";
import { notice, type Notice } from "../domain/notices";

/**
 * "Send to courier"'s data (the route app/routes/app.send.tsx is its frame, the page is
 * app/components/send/): the unfulfilled orders, searched by order number or customer and by the
 * day they were placed (Kuwait's days), and the page's two actions, a price quote for one order
 * and sending a batch of the selection.
 */

const day = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/)
  .refine((value) => !Number.isNaN(Date.parse(`${value}T00:00:00+03:00`)));

export const sendPageParams = z.object({
  q: z.string().trim().max(100).optional().catch(undefined),
  from: day.optional().catch(undefined),
  to: day.optional().catch(undefined),
  after: z.string().min(1).max(2_000).optional().catch(undefined),
});
export type SendPageParams = z.infer<typeof sendPageParams>;

/** How the order's payment reads: paid, to collect on delivery, or what else Shopify says. */
export type PaymentWords =
  | "paid"
  | "cod"
  | "partly_paid"
  | "authorized"
  | "refunded"
  | "partly_refunded"
  | "voided"
  | "other";

/** Shopify's financial status in the merchant's words (a pending payment is cash on delivery). */
export function paymentWords(status: string | null): PaymentWords | null {
  switch (status) {
    case null:
      return null;
    case "PAID":
      return "paid";
    case "PENDING":
      return "cod";
    case "PARTIALLY_PAID":
      return "partly_paid";
    case "AUTHORIZED":
      return "authorized";
    case "REFUNDED":
      return "refunded";
    case "PARTIALLY_REFUNDED":
      return "partly_refunded";
    case "VOIDED":
    case "EXPIRED":
      return "voided";
    default:
      return "other";
  }
}

/**
 * The search as Shopify's order search terms: an order number ("1001", "#1001") by name, any
 * other text as a quoted phrase (Shopify matches it against the customer's name, email and the
 * order's name), and the days as Kuwait's midnights.
 */
export function orderSearchTerms(params: Pick<SendPageParams, "q" | "from" | "to">): string[] {
  const terms: string[] = [];
  const q = params.q?.trim();
  if (q) {
    const number = /^#?\s*(\d{1,12})$/.exec(q);
    terms.push(number ? `name:#${number[1]}` : `"${q.replace(/["\\]/g, " ").trim()}"`);
  }
  if (params.from) terms.push(`created_at:>=${params.from}T00:00:00+03:00`);
  if (params.to) {
    const next = new Date(Date.parse(`${params.to}T00:00:00+03:00`) + 24 * 3_600_000);
    terms.push(`created_at:<${next.toISOString()}`);
  }
  return terms;
}

export interface SendPageOrder {
  id: string;
  name: string;
  createdAt: string;
  customer: string | null;
  city: string | null;
  country: string | null;
  amount: string;
  currency: string;
  payment: PaymentWords | null;
}

/** A page of sendable orders: the first on opening (or a new search), then "Load more". */
export async function loadSendPage(
  shop: string,
  admin: AdminGraphql,
  searchParams: URLSearchParams,
) {
  const params = sendPageParams.parse(Object.fromEntries(searchParams));
  const [page, waitingForCustomers] = await Promise.all([
    fetchSendableOrderPage(admin, params.after ?? null, ORDER_PAGE_SIZE, orderSearchTerms(params)),
    // Held in Shopify for their customers' answers (ADR 0056): not fulfillable, so not listed.
    countWaitingAsks(shop),
  ]);
  return {
    waitingForCustomers,
    params: { q: params.q ?? "", from: params.from ?? "", to: params.to ?? "" },
    orders: page.orders.map((o): SendPageOrder => ({
      id: o.id,
      name: o.name,
      createdAt: o.createdAt,
      customer: o.shippingAddress?.name ?? null,
      city: o.shippingAddress?.city ?? null,
      country: o.shippingAddress?.countryCodeV2 ?? null,
      amount: o.totalPriceSet.shopMoney.amount,
      currency: o.totalPriceSet.shopMoney.currencyCode,
      payment: paymentWords(o.displayFinancialStatus),
    })),
    nextCursor: page.nextCursor,
  };
}

export type SendPageData = Awaited<ReturnType<typeof loadSendPage>>;

const orderGid = z.string().regex(/^gid:\/\/shopify\/Order\/\d+$/, "Unknown order.");
const sendForm = z.discriminatedUnion("intent", [
  z.object({ intent: z.literal("quote"), orderId: orderGid }),
  z.object({
    intent: z.literal("quote-selection"),
    orderIds: z.array(orderGid).min(1, "select_at_least_one").max(QUOTE_LIMIT, "quote_too_many"),
  }),
  z.object({
    intent: z.literal("send"),
    /** Which batch of the page's selection this is, echoed back. */
    batch: z.coerce.number().int().min(0).max(BULK_LIMIT).optional(),
    /** How many orders the merchant selected in all (this request carries a batch of them). */
    selected: z.coerce.number().int().min(1).max(BULK_LIMIT, "select_too_many").optional(),
    orderIds: z
      .array(orderGid)
      .min(1, "select_at_least_one")
      .max(SEND_BATCH, "send_batch_too_large"),
  }),
]);

export type SendActionResult =
  | { intent: "quote"; orderId: string; quote: QuoteOutcome }
  | { intent: "quote-selection"; quotes: { orderId: string; quote: QuoteOutcome }[] }
  | { intent: "send"; batch: number | null; outcomes: SendOutcome[] }
  | { intent: "invalid"; batch: number | null; error: Notice };

/** The form's refusal: the schema's messages are notice codes, with the limit they name. */
function formNotice(message: string | undefined): Notice {
  if (message === "select_too_many") return notice(message, { count: BULK_LIMIT });
  if (message === "send_batch_too_large") return notice(message, { count: SEND_BATCH });
  if (message === "quote_too_many") return notice(message, { count: QUOTE_LIMIT });
  return notice(message === "select_at_least_one" ? message : "invalid_form");
}

/**
 * The courier's price for each selected order, three at a time (each is one courier call, through
 * the courier circuit like every merchant call); one order's failure is its own answer.
 */
async function quoteSelection(shop: string, admin: AdminGraphql, orderIds: string[]) {
  const quotes: { orderId: string; quote: QuoteOutcome }[] = [];
  for (let i = 0; i < orderIds.length; i += 3) {
    const batch = orderIds.slice(i, i + 3);
    const answers = await Promise.all(batch.map((id) => quoteOrder(shop, admin, id)));
    batch.forEach((orderId, k) => quotes.push({ orderId, quote: answers[k]! }));
  }
  return quotes;
}

/** The page's actions: a quote for one order or for the selection, or a batch sent. */
export async function sendPageAction(
  shop: string,
  admin: AdminGraphql,
  formData: FormData,
): Promise<{ status: number; body: SendActionResult }> {
  const parsed = sendForm.safeParse({
    intent: formData.get("intent"),
    orderId: formData.get("orderId") ?? undefined,
    batch: formData.get("batch") ?? undefined,
    selected: formData.get("selected") ?? undefined,
    orderIds: formData.getAll("orderIds"),
  });
  if (!parsed.success) {
    const batch = Number(formData.get("batch"));
    return {
      status: 400,
      body: {
        intent: "invalid",
        batch: Number.isInteger(batch) ? batch : null,
        error: formNotice(parsed.error.issues[0]?.message),
      },
    };
  }
  const form = parsed.data;
  if (form.intent === "quote-selection") {
    return {
      status: 200,
      body: { intent: "quote-selection", quotes: await quoteSelection(shop, admin, form.orderIds) },
    };
  }
  if (form.intent === "quote") {
    const quote = await quoteOrder(shop, admin, form.orderId);
    return { status: 200, body: { intent: "quote", orderId: form.orderId, quote } };
  }
  const outcomes = await sendOrdersToCourier(
    shop,
    admin,
    form.orderIds,
    (form.selected ?? form.orderIds.length) > 1 ? "bulk" : "manual",
  );
  return { status: 200, body: { intent: "send", batch: form.batch ?? null, outcomes } };
}
