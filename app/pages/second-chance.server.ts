import { rescueAnswerFor, sentAgainAs } from "../actions/send-again-with-answer.server";
import type { DayPart } from "../domain/second-chance";
import { findAskForOrder } from "../models/shopper-asks.server";

/**
 * The delivery page's second chance (issue 27, item 5): the customer was asked again after this
 * delivery's failed attempt; what they answered (the place, the phone, when they will be in) and
 * whether it was sent again with it. Null for a delivery that was not given one.
 */
export interface SecondChanceView {
  state: "waiting" | "answered" | "expired";
  askedAt: string | null;
  answerBy: string | null;
  answeredAt: string | null;
  answer: {
    area: { en: string; ar: string } | null;
    parts: Record<string, string | null>;
    phone: string | null;
    notes: string | null;
    when: { day: string; part: DayPart; note: string | null } | null;
  } | null;
  /** The new delivery it was sent again as. */
  sentAgainAs: string | null;
  /** "Send again with this answer" is offered. */
  canSendAgain: boolean;
}

export async function secondChanceOf(delivery: {
  id: string;
  shop: string;
  orderId: string;
  createdAt: Date;
}): Promise<SecondChanceView | null> {
  const ask = await findAskForOrder(delivery.shop, delivery.orderId);
  if (!ask || ask.kind !== "after_failed_attempt" || ask.deliveryId !== delivery.id) return null;
  const answer = rescueAnswerFor(ask, delivery.id);
  const newer = await sentAgainAs(delivery);
  return {
    state: answer ? "answered" : ask.state === "asked" ? "waiting" : "expired",
    askedAt: ask.askedAt?.toISOString() ?? null,
    answerBy: ask.answerBy?.toISOString() ?? null,
    answeredAt: ask.answeredAt?.toISOString() ?? null,
    answer: answer && {
      area: answer.areaName,
      parts: answer.parts,
      phone: answer.phone,
      notes: answer.notes,
      when: answer.availability ?? null,
    },
    sentAgainAs: newer,
    canSendAgain: answer !== null && newer === null,
  };
}
