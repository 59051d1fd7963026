import type { Prisma } from "@prisma/client";
import prisma from "../db.server";
import { Unreadable } from "../domain/json-column";
import { kwdToFils } from "../domain/kwd";
import { shopperAskedPayload } from "../domain/flow-triggers";
import {
  opensSecondChance,
  SECOND_CHANCE_LINK_DAYS,
  askKind,
  type SecondChanceCause,
} from "../domain/second-chance";
import { askTimes, type AskReason } from "../domain/shopper-ask";
import { messageDedupeKey } from "../domain/shopper-message";
import { messageLanguage } from "../domain/shopper-chat";
import { requestColumn } from "../domain/stored-request";
import { askLink } from "../domain/tracking-link";
import { env } from "../env.server";
import { enqueueFlowEvent } from "./flow-events.server";
import { queueShopperMessage } from "./shopper-messages.server";
import {
  newAskToken,
  questionsColumn,
  reasonsColumn,
  snapshotColumn,
  type OrderSnapshot,
} from "./shopper-asks.server";

/**
 * A second chance after a failed attempt (issue 27, item 5), inside the transaction that records
 * its cause — the delivery's move to `failed` (delivery-state/transition.server.ts) or a new
 * courier exception about it (courier-exceptions.server.ts): the order's ask opens again for that
 * delivery (made from what the delivery knows when the order had none), and in the same
 * transaction the WhatsApp message and the Flow trigger that carry the link are owed. A status
 * read twice or a second exception about the same attempt opens nothing more.
 */
export interface SecondChanceCauseInput {
  shop: string;
  deliveryId: string;
  cause: SecondChanceCause;
  /** What the courier said, as a reason the shopper reads (e.g. it could not find the address). */
  detail?: AskReason | null;
  at: Date;
}

const DAY_MS = 24 * 3_600_000;

export async function openSecondChance(
  tx: Prisma.TransactionClient,
  input: SecondChanceCauseInput,
): Promise<{ askId: string; round: number } | null> {
  const { shop, deliveryId, at } = input;
  const settings = await tx.shopSettings.findUnique({
    where: { shop },
    select: { askShoppers: true, askWindowHours: true, uninstalledAt: true },
  });
  // A merchant who turned asking off is not speaking to shoppers through the app at all.
  if (!settings?.askShoppers || settings.uninstalledAt) return null;
  const delivery = await tx.delivery.findFirst({
    where: { shop, id: deliveryId },
    select: {
      orderId: true,
      orderName: true,
      customerLanguage: true,
      customerName: true,
      customerPhone: true,
      cashToCollect: true,
      request: true,
    },
  });
  if (!delivery) return null;
  const ask = await tx.shopperAsk.findUnique({
    where: { shop_orderId: { shop, orderId: delivery.orderId } },
  });
  const kind = ask ? askKind.catch("before_sending").parse(ask.kind) : null;
  if (!opensSecondChance(ask && kind ? { ...ask, kind } : null, deliveryId, input.cause))
    return null;

  const reasons: AskReason[] = [input.cause, ...(input.detail ? [input.detail] : [])];
  const times = askTimes(at, settings.askWindowHours);
  const linkAtLeast = new Date(at.getTime() + SECOND_CHANCE_LINK_DAYS * DAY_MS);
  const opening = {
    kind: "after_failed_attempt",
    deliveryId,
    state: "asked",
    questions: questionsColumn.encode(["address"]),
    reasons: reasonsColumn.encode(reasons),
    // The first answer is on the order already: this round starts empty.
    answer: null,
    answerSource: null,
    answeredAt: null,
    askedAt: at,
    answerBy: times.answerBy,
    // The loop ends the round at answerBy (no holds: the order is fulfilled).
    nextAttemptAt: times.answerBy,
    attempts: 0,
    lastError: null,
  };
  let opened: { id: string; token: string; round: number; customerLanguage: string | null };
  let phone: string | null;
  if (ask) {
    // Guarded by the round read: two causes at once open one round, not two.
    const { count } = await tx.shopperAsk.updateMany({
      where: { id: ask.id, shop, round: ask.round },
      data: {
        ...opening,
        round: ask.round + 1,
        linkExpiresAt: ask.linkExpiresAt > linkAtLeast ? ask.linkExpiresAt : linkAtLeast,
      },
    });
    if (count !== 1) return null;
    opened = { ...ask, round: ask.round + 1 };
    const snapshot = ask.orderSnapshot ? snapshotColumn.decode(ask.orderSnapshot) : null;
    phone =
      snapshot && !(snapshot instanceof Unreadable)
        ? (snapshot.address.phone ?? snapshot.phone ?? delivery.customerPhone)
        : delivery.customerPhone;
  } else {
    const created = await tx.shopperAsk.create({
      data: {
        ...opening,
        shop,
        orderId: delivery.orderId,
        orderName: delivery.orderName,
        customerLanguage: delivery.customerLanguage,
        token: newAskToken(),
        orderSnapshot: snapshotColumn.encode(snapshotOfDelivery(delivery)),
        round: 1,
        linkExpiresAt: linkAtLeast,
      },
    });
    opened = created;
    phone = delivery.customerPhone;
  }

  const language = messageLanguage(opened.customerLanguage);
  await queueShopperMessage(tx, {
    shop,
    orderId: delivery.orderId,
    orderName: delivery.orderName,
    askId: opened.id,
    deliveryId,
    purpose: "failed_attempt",
    dedupeKey: messageDedupeKey("failed_attempt", { askId: opened.id, round: opened.round }),
    language,
    phone,
    at,
  });
  // Merchants without WhatsApp Business send the link from a Flow workflow, as for the first ask.
  await enqueueFlowEvent(
    tx,
    shop,
    "shopper-asked-address",
    shopperAskedPayload({
      orderId: delivery.orderId,
      link: askLink(env().SHOPIFY_APP_URL, opened.token),
      language,
      reasons,
      answerBy: times.answerBy,
    }),
    at,
  );
  return { askId: opened.id, round: opened.round };
}

/**
 * Inside the transaction that moved a failed delivery on (the courier out again, returned,
 * cancelled): its second chance, still unanswered, ends, so its message is not sent late and
 * the page no longer asks.
 */
export async function closeSecondChance(
  tx: Prisma.TransactionClient,
  shop: string,
  deliveryId: string,
  at: Date,
): Promise<void> {
  await tx.shopperAsk.updateMany({
    where: { shop, deliveryId, kind: "after_failed_attempt", state: "asked" },
    data: { state: "expired", answerBy: at, nextAttemptAt: null },
  });
}

/** Of these failed deliveries, those whose customer answered their second chance. */
export async function failedDeliveriesAnswered(
  shop: string,
  deliveryIds: readonly string[],
): Promise<Set<string>> {
  if (deliveryIds.length === 0) return new Set();
  const asks = await prisma.shopperAsk.findMany({
    where: {
      shop,
      kind: "after_failed_attempt",
      state: "answered",
      deliveryId: { in: [...deliveryIds] },
    },
    select: { deliveryId: true },
  });
  return new Set(asks.flatMap((a) => (a.deliveryId ? [a.deliveryId] : [])));
}

/** What the delivery knows of the order, for an order that was never asked about. */
function snapshotOfDelivery(delivery: {
  customerName: string | null;
  customerPhone: string | null;
  cashToCollect: string | null;
  request: string | null;
}): OrderSnapshot {
  const stored = delivery.request === null ? null : requestColumn.decode(delivery.request);
  const to =
    stored && !(stored instanceof Unreadable) && !stored.erased
      ? stored.body.deliveryAddress
      : null;
  const line = (pairs: [string, string | undefined][]) =>
    pairs
      .filter(([, value]) => value)
      .map(([label, value]) => `${label} ${value}`)
      .join(", ") || null;
  const [firstName, ...rest] = (delivery.customerName ?? "").trim().split(/\s+/);
  return {
    address: {
      firstName: firstName || null,
      lastName: rest.join(" ") || null,
      address1: to
        ? line([
            ["Block", to.block],
            ["Street", to.street],
            ["House", to.house],
          ])
        : null,
      address2: to
        ? line([
            ["Avenue", to.avenue],
            ["Building", to.building],
            ["Floor", to.floor],
          ])
        : null,
      city: null,
      provinceCode: null,
      zip: null,
      countryCode: "KW",
      phone: delivery.customerPhone,
    },
    phone: delivery.customerPhone,
    items: [],
    cashToCollectFils: delivery.cashToCollect ? kwdToFils(delivery.cashToCollect) : null,
    currency: "KWD",
  };
}
