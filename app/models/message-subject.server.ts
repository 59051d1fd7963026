import prisma from "../db.server";
import { Unreadable } from "../domain/json-column";
import { snapshotColumn } from "./shopper-asks.server";
import type { MessageRow } from "./shopper-messages.server";

/** What a message says and whether its question is still open, read when it is sent. */
export interface MessageSubject {
  open: boolean;
  token: string;
  /** Fils to collect, for the cash confirmation. */
  cashFils: number | null;
}

export async function messageSubject(row: MessageRow, now: Date): Promise<MessageSubject | null> {
  if (row.askId) {
    const ask = await prisma.shopperAsk.findFirst({
      where: { id: row.askId, shop: row.shop },
      select: { state: true, token: true, linkExpiresAt: true, orderSnapshot: true },
    });
    if (!ask) return null;
    const snapshot = snapshotColumn.decodeNullable(ask.orderSnapshot);
    return {
      open: ask.state === "asked" && ask.linkExpiresAt > now,
      token: ask.token,
      cashFils: snapshot && !(snapshot instanceof Unreadable) ? snapshot.cashToCollectFils : null,
    };
  }
  if (row.deliveryId) {
    const delivery = await prisma.delivery.findFirst({
      where: { id: row.deliveryId, shop: row.shop },
      select: { state: true, trackingToken: true },
    });
    if (!delivery?.trackingToken) return null;
    return {
      open: delivery.state === "out_for_delivery",
      token: delivery.trackingToken,
      cashFils: null,
    };
  }
  return null;
}
