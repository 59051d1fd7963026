import type { Prisma, ShopperMessage } from "@prisma/client";
import prisma from "../db.server";
import { customerWhatsappNumber, type MessageLanguage } from "../domain/shopper-chat";
import {
  PENDING_MESSAGE_STATES,
  type MessagePurpose,
  type MessageState,
  type SkipReason,
} from "../domain/shopper-message";

/**
 * The WhatsApp outbox (issue 27, ADR 0058): a message owed is a ShopperMessage row written in the
 * transaction that asks the question (the ask, a failed attempt), keyed by its dedupe key so a
 * question replayed by a webhook, a retried transaction or a second worker is one message. The
 * message loop (shopper/message-loop.server.ts) sends it. Nothing is written for a shop without
 * an enabled WhatsApp number: those merchants send the link from Flow or click-to-chat.
 */
export interface MessageOwed {
  shop: string;
  orderId: string;
  orderName: string | null;
  askId?: string | null;
  deliveryId?: string | null;
  purpose: MessagePurpose;
  dedupeKey: string;
  language: MessageLanguage;
  /** The phone as the order has it; kept only when it can receive WhatsApp (a mobile). */
  phone: string | null;
  at: Date;
}

/** Inside the caller's transaction: owes the message once. True when a row was written. */
export async function queueShopperMessage(
  tx: Prisma.TransactionClient,
  owed: MessageOwed,
): Promise<boolean> {
  const account = await tx.whatsAppAccount.findUnique({
    where: { shop: owed.shop },
    select: { enabled: true },
  });
  if (!account?.enabled) return false;
  const existing = await tx.shopperMessage.findUnique({
    where: { shop_dedupeKey: { shop: owed.shop, dedupeKey: owed.dedupeKey } },
    select: { id: true },
  });
  if (existing) return false;
  const toPhone = customerWhatsappNumber(owed.phone);
  await tx.shopperMessage.create({
    data: {
      shop: owed.shop,
      orderId: owed.orderId,
      orderName: owed.orderName,
      askId: owed.askId ?? null,
      deliveryId: owed.deliveryId ?? null,
      purpose: owed.purpose,
      dedupeKey: owed.dedupeKey,
      language: owed.language,
      // No mobile to write to: recorded as skipped, so the merchant sees why nothing went.
      state: toPhone ? "queued" : "skipped",
      skipReason: toPhone ? null : "no_mobile",
      toPhone,
      notBefore: owed.at,
      nextAttemptAt: toPhone ? owed.at : null,
      createdAt: owed.at,
    },
  });
  return true;
}

export interface MessageRow {
  id: string;
  shop: string;
  orderId: string;
  orderName: string | null;
  askId: string | null;
  deliveryId: string | null;
  purpose: MessagePurpose;
  language: MessageLanguage;
  state: MessageState;
  toPhone: string | null;
  notBefore: Date;
  attempts: number;
  sentAt: Date | null;
}

const rowOf = (row: ShopperMessage): MessageRow => ({
  id: row.id,
  shop: row.shop,
  orderId: row.orderId,
  orderName: row.orderName,
  askId: row.askId,
  deliveryId: row.deliveryId,
  purpose: row.purpose as MessagePurpose,
  language: row.language === "ar" ? "ar" : "en",
  state: row.state as MessageState,
  toPhone: row.toPhone,
  notBefore: row.notBefore,
  attempts: row.attempts,
  sentAt: row.sentAt,
});

/**
 * Leases up to `limit` messages with work due: queued ones, sends whose answer is awaited
 * (unconfirmed), and sends a crashed worker left `sending` once their lease ran out.
 */
export async function claimDueMessages(
  owner: string,
  limit: number,
  leaseMs: number,
  now = new Date(),
): Promise<MessageRow[]> {
  const free = { OR: [{ leaseExpiresAt: null }, { leaseExpiresAt: { lt: now } }] };
  const where = {
    nextAttemptAt: { lte: now },
    state: { in: [...PENDING_MESSAGE_STATES] },
    ...free,
  };
  const due = await prisma.shopperMessage.findMany({
    where,
    orderBy: { nextAttemptAt: "asc" },
    select: { id: true },
    take: limit,
  });
  if (due.length === 0) return [];
  await prisma.shopperMessage.updateMany({
    where: { id: { in: due.map((d) => d.id) }, ...where },
    data: { leaseOwner: owner, leaseExpiresAt: new Date(now.getTime() + leaseMs) },
  });
  const rows = await prisma.shopperMessage.findMany({
    where: { id: { in: due.map((d) => d.id) }, leaseOwner: owner },
  });
  return rows.map(rowOf);
}

export interface MessageChange {
  state?: MessageState;
  skipReason?: SkipReason | null;
  toPhone?: string | null;
  notBefore?: Date;
  nextAttemptAt?: Date | null;
  attempts?: number;
  sentAt?: Date | null;
  failedAt?: Date | null;
  lastError?: string | null;
  /** Keep the lease until this time (the send about to be made); else the lease ends. */
  leaseUntil?: Date;
}

/**
 * Saves what this worker decided, only while it still holds the row and the row is still in the
 * state it was read in: a status callback that moved it meanwhile (the message went) wins.
 */
export async function saveLeasedMessage(
  row: MessageRow,
  owner: string,
  change: MessageChange,
): Promise<boolean> {
  const { leaseUntil, ...data } = change;
  const { count } = await prisma.shopperMessage.updateMany({
    where: { id: row.id, shop: row.shop, leaseOwner: owner, state: row.state },
    data: {
      ...data,
      leaseOwner: leaseUntil ? owner : null,
      leaseExpiresAt: leaseUntil ?? null,
    },
  });
  return count === 1;
}

/**
 * WhatsApp took the message: its id, and `sent` unless a status callback got there first and
 * moved it further (the stand-in and Meta may call back before the send's answer is read).
 */
export async function saveSentMessage(
  row: MessageRow,
  owner: string,
  wamid: string,
  at: Date,
): Promise<void> {
  await prisma.$transaction([
    prisma.shopperMessage.updateMany({
      where: { id: row.id, shop: row.shop, state: { in: [...PENDING_MESSAGE_STATES] } },
      data: { state: "sent" },
    }),
    prisma.shopperMessage.updateMany({
      where: { id: row.id, shop: row.shop, leaseOwner: owner },
      data: {
        wamid,
        sentAt: at,
        toPhone: null,
        nextAttemptAt: null,
        lastError: null,
        leaseOwner: null,
        leaseExpiresAt: null,
      },
    }),
  ]);
}

/** Other messages handed to WhatsApp for this row's order since `since` (the daily cap). */
export function countMessagesSentSince(row: MessageRow, since: Date) {
  return prisma.shopperMessage.count({
    where: { shop: row.shop, orderId: row.orderId, id: { not: row.id }, sentAt: { gte: since } },
  });
}
