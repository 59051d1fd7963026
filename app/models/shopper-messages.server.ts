import type { Prisma } from "@prisma/client";
import { customerWhatsappNumber, type MessageLanguage } from "../domain/shopper-chat";
import type { MessagePurpose } from "../domain/shopper-message";

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
