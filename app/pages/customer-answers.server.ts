import { z } from "zod";
import { PART_NAMES } from "../addresses";
import { releaseShopperAsk } from "../actions/shopper-answer.server";
import { maskedPhone, type AskState } from "../domain/shopper-ask";
import {
  customerWhatsappNumber,
  messageLanguage,
  shopperChatMessage,
  whatsappChatUrl,
} from "../domain/shopper-chat";
import { askLink } from "../domain/tracking-link";
import { env } from "../env.server";
import { ANSWER_TABS, type AnswerTab } from "../models/read/customer-answers";
import { latestDeliveryOfOrders } from "../models/read/order-deliveries.server";
import { getShopSettings } from "../models/shop.server";
import { countAsksByState, findAsk, listAsks, type AskRow } from "../models/shopper-asks.server";

/**
 * Customer answers (app/routes/app.customer-answers.tsx, issue 26): the orders the app asked
 * their customer about, what it asked and why, and what came back; the customer's link to copy
 * and "Release now" while an order waits. `askView` is also the delivery page's card.
 */

/** The states each tab lists; "all" leaves out orders with nothing to ask unless asked to. */
const TAB_STATES: Record<AnswerTab, AskState[]> = {
  waiting: ["asked"],
  answered: ["answered"],
  all: ["checking", "asked", "answered", "expired", "released", "not_held"],
};

const PAGE_SIZE = 50;

const pageParams = z.object({
  tab: z.enum(ANSWER_TABS).catch("waiting"),
  quiet: z
    .string()
    .optional()
    .transform((value) => value === "1"),
  page: z.coerce.number().int().min(1).max(10_000).catch(1),
});

/** One ask as the merchant's pages show it: plain data, put into words by the page. */
export function askView(
  ask: AskRow,
  {
    now,
    appUrl,
    deliveryId,
    shopName,
  }: { now: Date; appUrl: string; deliveryId: string | null; shopName: string | null },
) {
  const answer = ask.answer;
  const linkLive = ask.state !== "checking" && ask.state !== "not_needed";
  const link = linkLive && ask.linkExpiresAt > now ? askLink(appUrl, ask.token) : null;
  return {
    id: ask.id,
    orderName: ask.orderName,
    // Who the order is for, as the merchant knows their orders (erased with the customer's data).
    customer:
      [ask.snapshot?.address.firstName, ask.snapshot?.address.lastName].filter(Boolean).join(" ") ||
      null,
    orderAdminPath: `shopify://admin/orders/${ask.orderId.split("/").pop()}`,
    state: ask.state,
    reasons: ask.reasons,
    askedAt: ask.askedAt?.toISOString() ?? null,
    answerBy: ask.answerBy?.toISOString() ?? null,
    answeredAt: ask.answeredAt?.toISOString() ?? null,
    source: ask.answerSource === "merchant" ? ("merchant" as const) : ("customer" as const),
    link,
    linkEnded: linkLive && ask.linkExpiresAt <= now,
    whatsappChat: ask.state === "asked" && link ? chatUrl(ask, link, shopName) : null,
    // The answer still being written to the Shopify order, or its holds released.
    updatingShopify: ask.pendingWork.length > 0,
    answer: answer && {
      kind: answer.kind,
      area: answer.areaName,
      parts: PART_NAMES.flatMap((part) => {
        const value = answer.parts[part];
        return value ? [{ part, value }] : [];
      }),
      notes: answer.notes,
      phone: maskedPhone(answer.phone),
      pin:
        answer.latitude !== null && answer.longitude !== null
          ? `https://www.google.com/maps/search/?api=1&query=${answer.latitude},${answer.longitude}`
          : null,
      cashConfirmed: answer.cashConfirmed,
    },
    deliveryId,
  };
}

export type AskView = ReturnType<typeof askView>;

/** WhatsApp with the message to the customer written, when their phone can be reached there. */
function chatUrl(ask: AskRow, link: string, shopName: string | null): string | null {
  const number = customerWhatsappNumber(ask.snapshot?.address.phone ?? ask.snapshot?.phone ?? null);
  if (!number) return null;
  const message = shopperChatMessage({
    language: messageLanguage(ask.customerLanguage),
    shopName,
    orderName: ask.orderName,
    questions: ask.questions,
    link,
  });
  return whatsappChatUrl(number, message);
}

/** The shop's name as its customers know it (the tracking page's, else Shopify's). */
export function customerFacingShopName(
  settings: { trackingShopName?: string | null; shopifyShopName?: string | null } | null,
): string | null {
  return settings?.trackingShopName || settings?.shopifyShopName || null;
}

/** What the Customer answers page shows for `?tab=&quiet=1&page=`. */
export async function customerAnswersPage(shop: string, search: URLSearchParams, now = new Date()) {
  const params = pageParams.parse(Object.fromEntries(search));
  const states: AskState[] = [
    ...TAB_STATES[params.tab],
    ...(params.tab === "all" && params.quiet ? (["not_needed"] as const) : []),
  ];
  const [asks, counts, settings] = await Promise.all([
    listAsks(shop, {
      states,
      take: PAGE_SIZE + 1,
      skip: (params.page - 1) * PAGE_SIZE,
    }),
    countAsksByState(shop),
    getShopSettings(shop),
  ]);
  const shown = asks.slice(0, PAGE_SIZE);
  const deliveries = await latestDeliveryOfOrders(
    shop,
    shown.map((ask) => ask.orderId),
  );
  const appUrl = env().SHOPIFY_APP_URL;
  const count = (list: AskState[]) => list.reduce((sum, state) => sum + (counts[state] ?? 0), 0);
  return {
    tab: params.tab,
    quiet: params.quiet,
    page: params.page,
    hasNext: asks.length > PAGE_SIZE,
    rows: shown.map((ask) =>
      askView(ask, {
        now,
        appUrl,
        deliveryId: deliveries.get(ask.orderId)?.id ?? null,
        shopName: customerFacingShopName(settings),
      }),
    ),
    counts: {
      waiting: count(TAB_STATES.waiting),
      answered: count(TAB_STATES.answered),
      all: count(TAB_STATES.all),
      notNeeded: counts.not_needed ?? 0,
    },
    asking: {
      addresses: settings?.askShoppers ?? false,
      cash: settings?.askCashConfirmation ?? false,
      windowHours: settings?.askWindowHours ?? 24,
    },
  };
}

export type CustomerAnswersPageData = Awaited<ReturnType<typeof customerAnswersPage>>;

const releaseForm = z.object({ intent: z.literal("release"), askId: z.string().min(1).max(64) });

type ReleaseError = "invalid_form" | "not_found" | "not_waiting";
export type ReleaseOutcome =
  | { ok: true; askId: string; orderName: string | null }
  | { ok: false; askId: string | null; error: ReleaseError };

/** The HTTP status of each refusal: another shop's ask is as missing as no ask at all. */
export const RELEASE_STATUS: Record<ReleaseError, number> = {
  invalid_form: 400,
  not_found: 404,
  not_waiting: 409,
};

/**
 * "Release now": the order goes on without the customer's answer (the loop releases Shopify's
 * holds). Only an ask of this shop, and only while it waits.
 */
export async function releaseFromPage(
  shop: string,
  form: Record<string, unknown>,
  now = new Date(),
): Promise<ReleaseOutcome> {
  const parsed = releaseForm.safeParse(form);
  if (!parsed.success) return { ok: false, askId: null, error: "invalid_form" };
  const { askId } = parsed.data;
  const ask = await findAsk(shop, askId);
  if (!ask) return { ok: false, askId, error: "not_found" };
  if (!(await releaseShopperAsk(shop, askId, now)))
    return { ok: false, askId, error: "not_waiting" };
  return { ok: true, askId, orderName: ask.orderName };
}
