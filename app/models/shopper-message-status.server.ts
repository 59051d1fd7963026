import prisma from "../db.server";
import {
  isStopReply,
  stateAfterStatus,
  type MessageState,
  type MessagePurpose,
  type SkipReason,
} from "../domain/shopper-message";
import type { InboundMessage, StatusEvent } from "../whatsapp";
import { recordOptOut } from "./whatsapp-opt-outs.server";

/**
 * What Meta's callbacks say about the shop's messages (issue 27): each status moves its
 * ShopperMessage row forward only (`stateAfterStatus`), so callbacks out of order and replayed
 * change nothing twice; a shopper who stopped the shop's messages is remembered as opted out.
 */

/** Meta's code for "this user stopped marketing messages from the business". */
export const STOPPED_MESSAGES_CODE = 131050;

const FAILURE_WORDS: Record<number, string> = {
  131026: "the number is not on WhatsApp or cannot receive business messages",
  131049: "WhatsApp held it back to keep the shopper from getting too many business messages",
  131050: "the shopper stopped messages from this business",
  131047: "more than 24 hours passed since the shopper's last message",
  131051: "this kind of message is not supported",
  131042: "the WhatsApp Business account has a payment problem",
  131031: "the WhatsApp Business account is locked",
  132001: "the template does not exist or is not approved in this language",
  132015: "the template is paused for low quality",
  132016: "the template was disabled",
};

/** The reason of a failed status in words, with Meta's code (the timeline translates by it). */
export function failureReason(error: StatusEvent["error"]): string {
  if (!error) return "WhatsApp could not deliver it.";
  const words = FAILURE_WORDS[error.code] ?? error.details ?? error.title ?? "no reason given";
  return `WhatsApp could not deliver it (code ${error.code}): ${words}.`;
}

const FINAL: readonly MessageState[] = ["sent", "delivered", "read", "failed"];

export interface StatusOutcome {
  applied: number;
  unchanged: number;
  unknown: number;
  optedOut: number;
}

/**
 * Applies a callback's statuses to the shop's messages. A status names its message by Meta's id
 * (`wamid`); a send whose answer was lost (`unconfirmed`) has none yet, and is found by the row
 * id it carried as `biz_opaque_callback_data`, which confirms it. Statuses of another shop's
 * messages find nothing here.
 */
export async function applyMessageStatuses(
  shop: string,
  events: readonly StatusEvent[],
  now: Date,
): Promise<StatusOutcome> {
  const outcome: StatusOutcome = { applied: 0, unchanged: 0, unknown: 0, optedOut: 0 };
  for (const event of events) {
    let row = await prisma.shopperMessage.findFirst({ where: { shop, wamid: event.messageId } });
    if (!row && event.callbackData) {
      row = await prisma.shopperMessage.findFirst({
        where: { shop, id: event.callbackData, wamid: null },
      });
    }
    if (!row) {
      outcome.unknown += 1;
      continue;
    }
    if (event.status === "failed" && event.error?.code === STOPPED_MESSAGES_CODE) {
      const phone = event.recipientId ?? row.toPhone;
      if (phone) {
        await recordOptOut(shop, phone, "meta_131050", event.at);
        outcome.optedOut += 1;
      }
    }
    const next = stateAfterStatus(row.state as MessageState, event.status);
    const data = {
      ...(row.wamid === null && { wamid: event.messageId }),
      ...(next !== null && { state: next }),
      ...(event.status === "sent" && row.sentAt === null && { sentAt: event.at }),
      ...(event.status === "delivered" && row.deliveredAt === null && { deliveredAt: event.at }),
      ...(event.status === "read" && row.readAt === null && { readAt: event.at }),
      ...(next === "failed" && { failedAt: event.at, lastError: failureReason(event.error) }),
      // Once WhatsApp has it, the number is needed no more (personal data).
      ...(next !== null && FINAL.includes(next) && row.toPhone !== null && { toPhone: null }),
      ...(next !== null && { nextAttemptAt: null }),
    };
    if (Object.keys(data).length === 0) {
      outcome.unchanged += 1;
      continue;
    }
    // The state read is part of the condition: a concurrent writer's move is not overwritten.
    const { count } = await prisma.shopperMessage.updateMany({
      where: { id: row.id, shop, state: row.state },
      data: { ...data, updatedAt: now },
    });
    if (count > 0) outcome.applied += 1;
    else outcome.unchanged += 1;
  }
  return outcome;
}

/** Shoppers who answered "STOP" (or «إيقاف»): no more messages from this shop. */
export async function applyInboundReplies(
  shop: string,
  messages: readonly InboundMessage[],
): Promise<number> {
  let optedOut = 0;
  for (const message of messages) {
    if (!isStopReply(message.text)) continue;
    await recordOptOut(shop, message.from, "stop_reply", message.at);
    optedOut += 1;
  }
  return optedOut;
}

/** One message of an order, as the delivery page shows it. */
export interface OrderMessage {
  id: string;
  purpose: MessagePurpose;
  language: string;
  state: MessageState;
  skipReason: SkipReason | null;
  createdAt: string;
  notBefore: string;
  sentAt: string | null;
  deliveredAt: string | null;
  readAt: string | null;
  failedAt: string | null;
  lastError: string | null;
  /** Meta's code of a failure, for its reason in the page's language. */
  failureCode: number | null;
  /** Queued for later (quiet hours): when it may go. */
  waitingUntil: string | null;
}

/** The WhatsApp messages of an order, oldest first (no phone number). */
export async function listOrderMessages(
  shop: string,
  orderId: string,
  now = new Date(),
): Promise<OrderMessage[]> {
  const rows = await prisma.shopperMessage.findMany({
    where: { shop, orderId },
    orderBy: { createdAt: "asc" },
    take: 50,
  });
  const iso = (at: Date | null) => at?.toISOString() ?? null;
  return rows.map((row) => ({
    id: row.id,
    purpose: row.purpose as MessagePurpose,
    language: row.language,
    state: row.state as MessageState,
    skipReason: row.skipReason as SkipReason | null,
    createdAt: row.createdAt.toISOString(),
    notBefore: row.notBefore.toISOString(),
    sentAt: iso(row.sentAt),
    deliveredAt: iso(row.deliveredAt),
    readAt: iso(row.readAt),
    failedAt: iso(row.failedAt),
    lastError: row.lastError,
    failureCode: Number(/\(code (\d+)\)/.exec(row.lastError ?? "")?.[1]) || null,
    waitingUntil:
      row.state === "queued" && row.notBefore > now ? row.notBefore.toISOString() : null,
  }));
}

/** The WhatsApp messages of the order a delivery belongs to (none for another shop's id). */
export async function listDeliveryMessages(
  shop: string,
  deliveryId: string,
  now = new Date(),
): Promise<OrderMessage[]> {
  const delivery = await prisma.delivery.findFirst({
    where: { shop, id: deliveryId },
    select: { orderId: true },
  });
  return delivery ? listOrderMessages(shop, delivery.orderId, now) : [];
}
