import { emptyParts, gazetteerAreaFor, type AddressParts } from "../addresses";
import { normalizeKuwaitiPhone } from "../domain/contact-phone";
import {
  shopperAnswerForm,
  type ShopperAnswer,
  type ShopperAnswerForm,
} from "../domain/shopper-ask";
import { eventText } from "../domain/timeline-text";
import { listOrderDeliveries, addDeliveryEvent } from "../models/deliveries.server";
import { transition, StaleDeliveryError } from "../models/delivery-state";
import { orderDeliveryStates, shopperPageRows } from "../models/read/shopper-page.server";
import { recordAnswer, releaseAsk, type AskRow } from "../models/shopper-asks.server";
import { getShopSettings } from "../models/shop.server";
import { kickDeliveryWorker } from "../pipeline/drain-loop.server";
import { loadCourierDirectory } from "../services/courier-directory.server";
import { changeRefusal, shopperPage, type ChangeRefusal } from "../shopper/page.server";
import { kickShopperLoop } from "../shopper/runner.server";
import { shopperPhone, whenChoices, WHEN_DAYS } from "../domain/second-chance";
import { kuwaitDay } from "../domain/working-days";
import { sendAgainWithAnswer } from "./send-again-with-answer.server";

/**
 * The shopper's answer on their page (issue 26, ADR 0056), or the merchant's for them: checked
 * against the order (only this order, only until a parcel of it is picked up), recorded whole on
 * the ask, and carried to the order's deliveries: one waiting for its address (or refused by the
 * courier) goes back to the worker, which builds it with the answer; one already booked at the
 * courier says on its timeline that the merchant must send it again to use it. What the answer
 * does in Shopify (the order's address, the holds) is the shopper loop's, at once.
 */

export type AnswerOutcome =
  | { ok: true }
  | { ok: false; refusal: ChangeRefusal | "not_found" | "no_courier" }
  | { ok: false; errors: Partial<Record<keyof ShopperAnswerForm | "form", string>> };

const blank = (value: string) => (value.trim() === "" ? null : value.trim());

export async function answerOnShopperPage(
  token: string,
  form: Record<string, unknown>,
  { now = new Date(), source = "shopper" as "shopper" | "merchant" } = {},
): Promise<AnswerOutcome> {
  const rows = await shopperPageRows(token, now);
  if (!rows?.ask) return { ok: false, refusal: "not_found" };
  const ask = rows.ask;
  const refusal = changeRefusal(rows, await orderDeliveryStates(ask.shop, ask.orderId), now);
  if (refusal) return { ok: false, refusal };
  const parsed = shopperAnswerForm.safeParse(form);
  if (!parsed.success) {
    const errors: Partial<Record<keyof ShopperAnswerForm | "form", string>> = {};
    for (const issue of parsed.error.issues) {
      const field = (issue.path[0] as keyof ShopperAnswerForm | undefined) ?? "form";
      errors[field] ??= issue.message;
    }
    return { ok: false, errors };
  }
  const answer = await answerFrom(ask, parsed.data, token, now);
  if (!answer.ok) return answer;
  const recorded = await recordAnswer({
    shop: ask.shop,
    id: ask.id,
    answer: answer.answer,
    source,
    at: now,
  });
  if (!recorded) return { ok: false, refusal: "checking" };
  await carryToDeliveries(recorded, source);
  kickShopperLoop();
  kickDeliveryWorker();
  await resendWhenMerchantChose(recorded);
  return { ok: true };
}

/** The day chosen is one still ahead in Kuwait (a page left open overnight offers yesterday's). */
function whenIsAhead(day: string | undefined, now: Date): boolean {
  if (!day) return false;
  const choices = whenChoices(now, WHEN_DAYS + 3);
  return day >= kuwaitDay(now) && day <= choices.at(-1)!;
}

/**
 * The merchant chose to send a failed delivery again as soon as its customer answers (Settings):
 * the same action as the delivery page's button, so a repeated answer sends nothing more. Its
 * failure does not fail the answer: the delivery page still offers the button.
 */
async function resendWhenMerchantChose(ask: AskRow) {
  if (ask.kind !== "after_failed_attempt" || !ask.deliveryId) return;
  const settings = await getShopSettings(ask.shop);
  if (!settings?.resendOnRescueAnswer) return;
  try {
    const outcome = await sendAgainWithAnswer(ask.shop, ask.deliveryId);
    if (!outcome.ok && outcome.error.code !== "rescue_already_sent")
      console.warn(`Not sent again with the customer's answer: ${outcome.error.code}`);
  } catch (error) {
    console.warn(
      `Not sent again with the customer's answer: ${error instanceof Error ? error.message : String(error)}`,
    );
  }
}

/** The answer as kept, from the form and what the app has: refused when it is not a place. */
async function answerFrom(
  ask: AskRow,
  form: ShopperAnswerForm,
  token: string,
  now: Date,
): Promise<{ ok: true; answer: ShopperAnswer } | Extract<AnswerOutcome, { ok: false }>> {
  const settings = await getShopSettings(ask.shop);
  const directory = settings && (await loadCourierDirectory(ask.shop, settings.courierEnvironment));
  if (!directory) return { ok: false, refusal: "no_courier" };
  const rescue = form.intent === "rescue";
  if (rescue && !whenIsAhead(form.whenDay, now))
    return { ok: false, errors: { whenDay: "when_day_missing" } };
  const extras = {
    notes: blank(form.notes),
    phone: form.phone
      ? rescue
        ? shopperPhone(form.phone)
        : normalizeKuwaitiPhone(form.phone)
      : (ask.answer?.phone ?? null),
    latitude: form.latitude,
    longitude: form.longitude,
    cashConfirmed: form.cashConfirmed || (ask.answer?.cashConfirmed ?? false),
    availability:
      rescue && form.whenDay && form.whenPart
        ? { day: form.whenDay, part: form.whenPart, note: blank(form.whenNote) }
        : null,
  };
  if (form.intent === "cash") {
    if (!form.cashConfirmed) return { ok: false, errors: { cashConfirmed: "cash_not_confirmed" } };
    const before = ask.answer;
    return {
      ok: true,
      answer: before
        ? { ...before, cashConfirmed: true }
        : {
            kind: "cash_only",
            governanceId: null,
            areaId: null,
            areaName: null,
            provinceCode: null,
            parts: emptyParts(),
            ...extras,
            cashConfirmed: true,
          },
    };
  }
  let governanceId: number;
  let areaId: number;
  let parts: AddressParts;
  if (form.intent === "confirm") {
    // The place the page showed, taken as it is (the shopper saw it and said yes).
    const page = await shopperPage(token, now);
    if (!page?.place?.complete) return { ok: false, errors: { form: "confirm_needs_fix" } };
    ({ governanceId, areaId, parts } = page.place);
  } else {
    const row = directory.areas.find((a) => a.id === form.areaId);
    if (!row) return { ok: false, errors: { areaId: "area_missing" } };
    governanceId = row.governanceId;
    areaId = row.id;
    parts = {
      block: blank(form.block),
      street: blank(form.street),
      avenue: blank(form.avenue),
      house: blank(form.house),
      building: blank(form.building),
      floor: blank(form.floor),
      apartment: blank(form.apartment),
      paci: blank(form.paci),
    };
  }
  const place = gazetteerAreaFor(areaId, directory.index);
  const courierName = directory.areas.find((a) => a.id === areaId)?.name ?? "";
  return {
    ok: true,
    answer: {
      kind: form.intent === "confirm" ? "confirmed" : "fixed",
      governanceId,
      areaId,
      areaName:
        place.status === "found"
          ? { en: place.area.nameEn, ar: place.area.nameAr }
          : { en: courierName, ar: courierName },
      provinceCode: place.status === "found" ? place.area.governorateCode : null,
      parts,
      ...extras,
    },
  };
}

/** What the answer means for each of the order's deliveries, said on its timeline. */
async function carryToDeliveries(ask: AskRow, source: "shopper" | "merchant") {
  const answer = ask.answer;
  if (!answer) return;
  const said =
    source === "merchant"
      ? "merchant_answered_for_shopper"
      : answer.kind === "cash_only"
        ? "shopper_cash_confirmed"
        : answer.kind === "confirmed"
          ? "shopper_confirmed"
          : "shopper_fixed";
  for (const delivery of await listOrderDeliveries(ask.shop, ask.orderId)) {
    const data = { text: eventText(said) };
    if (answer.kind !== "cash_only" && ["needs_address", "rejected"].includes(delivery.state)) {
      try {
        await transition({
          shop: delivery.shop,
          id: delivery.id,
          from: delivery.state,
          to: "pending",
          leaseOwner: null,
          data: { stateReason: null, lastError: null, failures: 0, nextAttemptAt: new Date() },
          event: {
            kind: "shopper_answered",
            message: "Answered by the customer on their page.",
            data,
          },
        });
      } catch (error) {
        // Moved meanwhile (the merchant sent it): the answer is kept on the ask, for the merchant.
        if (!(error instanceof StaleDeliveryError)) throw error;
      }
      continue;
    }
    if (
      answer.kind === "fixed" &&
      ["created", "ready", "creating", "unknown"].includes(delivery.state)
    ) {
      await addDeliveryEvent(
        delivery.shop,
        delivery.id,
        "shopper_answered",
        "The customer corrected the address after the courier order was made.",
        new Date(),
        { text: eventText("shopper_fixed_after_booking") },
      );
      continue;
    }
    if (delivery.state !== "cancelled" && delivery.state !== "skipped")
      await addDeliveryEvent(
        delivery.shop,
        delivery.id,
        "shopper_answered",
        "Answered by the customer on their page.",
        new Date(),
        data,
      );
  }
}

/** The merchant lets the order go without the shopper's answer: the holds are released. */
export async function releaseShopperAsk(shop: string, id: string, now = new Date()) {
  const released = await releaseAsk(shop, id, now);
  if (released) kickShopperLoop();
  return released;
}
