import { matchAddress, resolveCourierIds } from "../addresses";
import { rememberable } from "../domain/remember-area";
import {
  answerMetafields,
  askTimes,
  decideAsk,
  HOLD_HANDLE,
  holdFor,
  mailingAddressOf,
} from "../domain/shopper-ask";
import { shopperAskedPayload, shopperAskedTrigger } from "../domain/flow-triggers";
import { backoffMs } from "../domain/lease-policy";
import { messageLanguage } from "../domain/shopper-chat";
import { messageDedupeKey, type MessagePurpose } from "../domain/shopper-message";
import { askLink } from "../domain/tracking-link";
import { env } from "../env.server";
import { listAreaOverrides, rememberAreaSpelling } from "../models/area-overrides.server";
import { getShopSettings, rememberShopifyShopName } from "../models/shop.server";
import {
  claimDueAsks,
  saveLeasedAsk,
  saveLeasedAskWithTrigger,
  updateLeasedAskWork,
  type AskHold,
  type AskRow,
  type AskWork,
} from "../models/shopper-asks.server";
import { loadCourierDirectory } from "../services/courier-directory.server";
import { pacedAdmin, ShopifyThrottledError } from "../shopify/cost-budget";
import type { AdminGraphql } from "../shopify/graphql";
import {
  fetchShopName,
  holdFulfillmentOrder,
  orderFulfillmentOrders,
  releaseFulfillmentOrderHolds,
  updateOrderWithAnswer,
} from "../shopify/holds";

/**
 * The shopper loop (issue 26, ADR 0056): each order recorded by orders/create is checked once —
 * the address placed with the matcher and the shop's remembered answers, cash on delivery weighed
 * against the merchant's settings — and, when there is something to ask, Shopify's own hold goes
 * on its fulfillment orders and the link is live. An answer (or the end of the merchant's window,
 * or the merchant letting go) leaves work on the row: the answer written to the order, the holds
 * released, the area remembered; the loop carries it out, a failure tried again later.
 */
export interface AskLoopDependencies {
  owner: string;
  adminFor(shop: string): Promise<AdminGraphql>;
  now?: () => Date;
  leaseMs?: number;
  /** The app's address, for the customer's link in the Flow trigger (SHOPIFY_APP_URL). */
  appUrl?: string;
}

const LEASE_MS = 60_000;
/** How long an order may be without fulfillment orders before the ask gives up holding it. */
const ROUTING_WAIT_MS = 5 * 60_000;
const MAX_ERROR = 400;

const nowOf = (deps: AskLoopDependencies) => deps.now?.() ?? new Date();

/** One pass: leases up to `limit` due asks and does what each needs. How many it handled. */
export async function runDueAsks(deps: AskLoopDependencies, limit = 10): Promise<number> {
  const now = nowOf(deps);
  const asks = await claimDueAsks(deps.owner, limit, deps.leaseMs ?? LEASE_MS, now);
  await Promise.allSettled(asks.map((ask) => handle(ask, deps)));
  return asks.length;
}

async function handle(ask: AskRow, deps: AskLoopDependencies): Promise<void> {
  try {
    if (ask.state === "checking") return await check(ask, deps);
    if (ask.state === "asked" && ask.answerBy && ask.answerBy <= nowOf(deps))
      return await expire(ask, deps);
    return await work(ask, deps);
  } catch (error) {
    await retryLater(ask, deps, error);
  }
}

/** A failure that may pass (Shopify down, throttled): the ask is tried again later, nothing lost. */
async function retryLater(ask: AskRow, deps: AskLoopDependencies, error: unknown) {
  const now = nowOf(deps).getTime();
  const waitMs =
    error instanceof ShopifyThrottledError
      ? Math.max(1_000, error.retryAt.getTime() - now)
      : backoffMs(ask.attempts + 1, 5_000, 30 * 60_000);
  await saveLeasedAsk(ask, deps.owner, {
    attempts: error instanceof ShopifyThrottledError ? ask.attempts : ask.attempts + 1,
    nextAttemptAt: new Date(now + waitMs),
    lastError: (error instanceof Error ? error.message : String(error)).slice(0, MAX_ERROR),
  });
}

async function admin(ask: AskRow, deps: AskLoopDependencies) {
  return pacedAdmin(ask.shop, await deps.adminFor(ask.shop), () => nowOf(deps));
}

/** checking: is there anything to ask? If so, hold the order and make the link live. */
async function check(ask: AskRow, deps: AskLoopDependencies): Promise<void> {
  const now = nowOf(deps);
  const settings = await getShopSettings(ask.shop);
  const snapshot = ask.snapshot;
  const policy = {
    askAddresses: settings?.askShoppers ?? false,
    askCashConfirmation: settings?.askCashConfirmation ?? false,
    windowHours: settings?.askWindowHours ?? 24,
  };
  const directory =
    settings && (policy.askAddresses || policy.askCashConfirmation)
      ? await loadCourierDirectory(ask.shop, settings.courierEnvironment)
      : null;
  // Nothing to ask with: no settings, asking off, the courier's areas unknown, no address.
  if (!settings || settings.uninstalledAt || !directory || !snapshot) {
    await saveLeasedAsk(ask, deps.owner, { state: "not_needed", nextAttemptAt: null });
    return;
  }
  const match = matchAddress(
    {
      provinceCode: snapshot.address.provinceCode,
      city: snapshot.address.city,
      address1: snapshot.address.address1,
      address2: snapshot.address.address2,
      zip: snapshot.address.zip,
      countryCode: snapshot.address.countryCode,
    },
    { overrides: await listAreaOverrides(ask.shop) },
  );
  const resolution = match.area ? resolveCourierIds(match.area, directory.index) : null;
  const decision = decideAsk(
    {
      confident: match.confident,
      areaFound: match.area !== null,
      atCourier: resolution?.status === "resolved",
      parts: match.parts,
    },
    (snapshot.cashToCollectFils ?? 0) > 0,
    policy,
  );
  // Outside Kuwait (another courier's) nothing is asked either.
  if (decision.questions.length === 0 || (snapshot.address.countryCode ?? "KW") !== "KW") {
    await saveLeasedAsk(ask, deps.owner, { state: "not_needed", nextAttemptAt: null });
    return;
  }
  const shopify = await admin(ask, deps);
  if (!settings.shopifyShopName) {
    await rememberShopifyShopName(ask.shop, await fetchShopName(shopify));
  }
  const fulfillmentOrders = (await orderFulfillmentOrders(shopify, ask.orderId)) ?? [];
  // Shopify makes an order's fulfillment orders in a job of its own after orders/create: none yet
  // is a wait of a few seconds, not a refusal.
  if (fulfillmentOrders.length === 0 && now.getTime() - ask.createdAt.getTime() < ROUTING_WAIT_MS) {
    await saveLeasedAsk(ask, deps.owner, { nextAttemptAt: new Date(now.getTime() + 10_000) });
    return;
  }
  const hold = holdFor(decision, match.doubt);
  const held: AskHold[] = [];
  const refusals: string[] = [];
  for (const fulfillmentOrder of fulfillmentOrders) {
    if (!["OPEN", "SCHEDULED", "ON_HOLD"].includes(fulfillmentOrder.status)) continue;
    const ours = fulfillmentOrder.holds.find((h) => h.handle === HOLD_HANDLE);
    if (ours) {
      // Placed by an earlier try whose answer was lost.
      held.push({ fulfillmentOrderId: fulfillmentOrder.id, holdId: ours.id });
      continue;
    }
    const placed = await holdFulfillmentOrder(shopify, {
      fulfillmentOrderId: fulfillmentOrder.id,
      reason: hold.reason,
      note: hold.note,
      handle: HOLD_HANDLE,
    });
    if (placed.ok) held.push({ fulfillmentOrderId: fulfillmentOrder.id, holdId: placed.holdId });
    else refusals.push(placed.refusal);
  }
  const times = askTimes(now, policy.windowHours);
  const trigger = held.length > 0 ? shopperAskedTrigger(decision.questions) : null;
  // Merchants without WhatsApp Business send the link from a Flow workflow (issue 27).
  const flow = trigger && {
    trigger,
    payload: shopperAskedPayload({
      orderId: ask.orderId,
      link: askLink(deps.appUrl ?? env().SHOPIFY_APP_URL, ask.token),
      language: messageLanguage(ask.customerLanguage),
      reasons: decision.reasons,
      answerBy: times.answerBy,
    }),
    at: now,
  };
  // Merchants with WhatsApp Business: the message is owed in the same transaction (issue 27).
  const purpose: MessagePurpose = decision.questions.includes("address")
    ? "address_check"
    : "cash_confirmation";
  const message = trigger && {
    shop: ask.shop,
    orderId: ask.orderId,
    orderName: ask.orderName,
    askId: ask.id,
    purpose,
    dedupeKey: messageDedupeKey(purpose, { askId: ask.id, round: ask.round }),
    language: messageLanguage(ask.customerLanguage),
    phone: snapshot.address.phone ?? snapshot.phone,
    at: now,
  };
  await saveLeasedAskWithTrigger(
    ask,
    deps.owner,
    {
      // Shopify took no hold (an order fulfilled meanwhile, a plan without holds): the link still
      // works, but the order goes today's way.
      state: held.length > 0 ? "asked" : "not_held",
      questions: decision.questions,
      reasons: decision.reasons,
      holds: held,
      askedAt: now,
      answerBy: held.length > 0 ? times.answerBy : null,
      linkExpiresAt: times.linkExpiresAt,
      nextAttemptAt: held.length > 0 ? times.answerBy : null,
      lastError: refusals.length > 0 ? refusals.join(" ").slice(0, MAX_ERROR) : null,
    },
    flow,
    message,
  );
}

/** No answer in the merchant's window: the holds go, and the merchant decides as today. */
async function expire(ask: AskRow, deps: AskLoopDependencies): Promise<void> {
  await releaseHolds(ask, deps);
  await saveLeasedAsk(ask, deps.owner, {
    state: "expired",
    holds: [],
    pendingWork: [],
    nextAttemptAt: null,
    attempts: 0,
    lastError: null,
  });
}

async function releaseHolds(ask: AskRow, deps: AskLoopDependencies): Promise<void> {
  if (ask.holds.length === 0) return;
  const shopify = await admin(ask, deps);
  for (const [fulfillmentOrderId, holdIds] of groupHolds(ask.holds)) {
    const released = await releaseFulfillmentOrderHolds(shopify, fulfillmentOrderId, holdIds);
    if (!released.ok) throw new Error(`Shopify did not release the hold: ${released.refusal}`);
  }
}

function groupHolds(holds: AskHold[]): Map<string, string[]> {
  const byOrder = new Map<string, string[]>();
  for (const h of holds)
    byOrder.set(h.fulfillmentOrderId, [...(byOrder.get(h.fulfillmentOrderId) ?? []), h.holdId]);
  return byOrder;
}

/**
 * What an answer, or the merchant's release, left to do. Each item is done and struck off in
 * turn: the order written before the holds go, so staff fulfil with the answer on it.
 */
async function work(ask: AskRow, deps: AskLoopDependencies): Promise<void> {
  let remaining: AskWork[] = [...ask.pendingWork];
  let holds = ask.holds;
  const notes: string[] = [];
  for (const item of ask.pendingWork) {
    if (item === "write_order") {
      const written = await writeOrder(ask, deps);
      // Shopify refusing the address (a field it will not take) must not keep the order held:
      // the answer is on the app's side, and the merchant sees Shopify's words.
      if (!written.ok) notes.push(`Shopify did not take the answered address: ${written.refusal}`);
    } else if (item === "release_holds") {
      await releaseHolds(ask, deps);
      holds = [];
    } else if (item === "remember_area") {
      await rememberAnsweredArea(ask);
    }
    remaining = remaining.filter((w) => w !== item);
    await saveLeasedAskProgress(ask, deps, remaining, holds);
  }
  await saveLeasedAsk(ask, deps.owner, {
    pendingWork: [],
    holds,
    nextAttemptAt: null,
    attempts: 0,
    lastError: notes.length > 0 ? notes.join(" ").slice(0, MAX_ERROR) : null,
  });
}

/** Strikes off what is done, keeping the lease (the row stays this worker's until the end). */
async function saveLeasedAskProgress(
  ask: AskRow,
  deps: AskLoopDependencies,
  remaining: AskWork[],
  holds: AskHold[],
) {
  await updateLeasedAskWork(ask, deps.owner, remaining, holds);
}

async function writeOrder(ask: AskRow, deps: AskLoopDependencies) {
  const answer = ask.answer;
  if (!answer || answer.kind === "cash_only") return { ok: true as const };
  const address = ask.snapshot?.address;
  return updateOrderWithAnswer(await admin(ask, deps), {
    orderId: ask.orderId,
    // Confirmed as it was: the shipping address stays as the shopper typed it.
    shippingAddress:
      answer.kind === "fixed"
        ? mailingAddressOf(answer, {
            firstName: address?.firstName ?? null,
            lastName: address?.lastName ?? null,
            phone: address?.phone ?? ask.snapshot?.phone ?? null,
          })
        : null,
    metafields: answerMetafields(answer),
  });
}

/**
 * The shopper's area for what they had typed, remembered as the merchant's answers are: the next
 * order spelt the same way is placed there without asking.
 */
async function rememberAnsweredArea(ask: AskRow): Promise<void> {
  const answer = ask.answer;
  const typed = ask.snapshot?.address;
  if (!answer || answer.areaId === null || !typed) return;
  const settings = await getShopSettings(ask.shop);
  const directory = settings && (await loadCourierDirectory(ask.shop, settings.courierEnvironment));
  if (!directory) return;
  const remember = rememberable(typed, answer.areaId, directory.index);
  if ("key" in remember)
    await rememberAreaSpelling(ask.shop, remember.key, {
      governorate: remember.governorate,
      area: remember.area,
    });
}
