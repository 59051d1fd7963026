import {
  emptyParts,
  findGovernorate,
  GOVERNORATES,
  gazetteerAreaFor,
  matchAddress,
  missingForCourier,
  resolveCourierIds,
  type AddressDoubt,
  type AddressParts,
} from "../addresses";
import { areaChoices, type AreaChoice } from "../domain/area-choices";
import { formatKwd, kwdToFils, type Fils } from "../domain/kwd";
import {
  maskedPhone,
  type AskQuestion,
  type AskReason,
  type ShopperAnswer,
} from "../domain/shopper-ask";
import type { DeliveryState } from "../domain/states";
import { whenChoices, type Availability } from "../domain/second-chance";
import { trackingSteps, type TrackingSteps } from "../domain/tracking-steps";
import { expectedDeliveryDay } from "../domain/working-days";
import { listAreaOverrides } from "../models/area-overrides.server";
import {
  orderDeliveryStates,
  shopForShopperPage,
  shopperPageRows,
  type PageDelivery,
  type ShopperPageRows,
} from "../models/read/shopper-page.server";
import { loadCourierDirectory, type CourierDirectory } from "../services/courier-directory.server";

/**
 * The shopper's page (issue 26, ADR 0056): one public page per order, behind either link the
 * shopper holds. Before the parcel leaves it asks what the app needs (or offers to fix the
 * address); afterwards it tracks the parcel; throughout it shows the shop, the order, the cash to
 * have ready and the address as the courier has it. Never the customer's name, the phone only
 * masked, never another order.
 */

/** Once a delivery of the order is in one of these, its address is the courier's: no change. */
const TOO_LATE: readonly DeliveryState[] = [
  "picked_up",
  "in_transit",
  "out_for_delivery",
  "delivered",
  "failed",
  "returned",
];

export type ChangeRefusal = "picked_up" | "cancelled" | "expired" | "checking";

export interface PlaceOnPage {
  governanceId: number;
  areaId: number;
  area: { en: string; ar: string; courier: string };
  governorate: { en: string; ar: string };
  parts: AddressParts;
  /** A block and a street, house or building: what the courier needs below the area. */
  complete: boolean;
}

export interface ShopperPageView {
  language: string | null;
  shop: {
    name: string | null;
    phone: string | null;
    whatsapp: string | null;
    email: string | null;
  };
  orderName: string | null;
  items: { title: string; quantity: number }[];
  /** "36.500" (KWD) the driver collects, or null for a paid order. */
  cashToCollect: string | null;
  phone: string | null;
  tracking: (TrackingSteps & { number: string; expectedDay: string | null }) | null;
  /** The open question, while the order waits for the answer. */
  question: {
    questions: AskQuestion[];
    reasons: AskReason[];
    /** Why the matcher doubts the area the order names (issue 30), when it does. */
    doubt: AddressDoubt | null;
    answerBy: string | null;
  } | null;
  answered: {
    kind: ShopperAnswer["kind"];
    at: string;
    cashConfirmed: boolean;
    availability?: Availability | null;
  } | null;
  /**
   * After a failed attempt (issue 27): the question is the address, a phone and when they will
   * be in, one of the next working days.
   */
  secondChance?: { days: string[] } | null;
  /** The address as the app has it now (the answer, what was sent, or its reading of the order). */
  place: PlaceOnPage | null;
  /** What the shopper typed at checkout, when the app could not place it with confidence. */
  typed: string | null;
  canChange: boolean;
  refusal: ChangeRefusal | null;
  choices: { governorates: { id: number; en: string; ar: string }[]; areas: AreaChoice[] } | null;
}

/** Why the shopper may not change the address any more, or null when they may. */
export function changeRefusal(
  rows: ShopperPageRows,
  states: readonly DeliveryState[],
  now: Date,
): ChangeRefusal | null {
  // After a failed attempt the parcel is back at the courier's: the shopper may correct it.
  const tooLate =
    rows.ask?.kind === "after_failed_attempt" ? TOO_LATE.filter((s) => s !== "failed") : TOO_LATE;
  if (states.some((s) => tooLate.includes(s))) return "picked_up";
  if (states.length > 0 && states.every((s) => s === "cancelled")) return "cancelled";
  if (rows.ask?.state === "checking") return "checking";
  if (rows.ask && rows.ask.linkExpiresAt <= now) return "expired";
  return null;
}

/** The page behind a link, or null when the link names nothing the shopper may see. */
export async function shopperPage(
  token: string,
  now = new Date(),
): Promise<ShopperPageView | null> {
  const rows = await shopperPageRows(token, now);
  if (!rows) return null;
  const { ask, delivery } = rows;
  const orderId = ask?.orderId ?? delivery!.orderId;
  const [shop, states] = await Promise.all([
    shopForShopperPage(rows.shop),
    orderDeliveryStates(rows.shop, orderId),
  ]);
  const directory = await loadCourierDirectory(rows.shop, shop.courierEnvironment);
  const refusal = changeRefusal(rows, states, now);
  // Only an ask can take an answer: a delivery's link without one tracks the parcel only.
  const canChange = refusal === null && directory !== null && ask !== null;
  return {
    language: ask?.customerLanguage ?? delivery?.customerLanguage ?? null,
    shop: {
      name: shop.name,
      phone: shop.phone,
      whatsapp: whatsappNumber(shop.phone),
      email: shop.email,
    },
    orderName: ask?.orderName ?? delivery?.orderName ?? null,
    items: ask?.snapshot?.items ?? [],
    cashToCollect: cashOf(rows),
    phone: maskedPhone(
      ask?.answer?.phone ??
        ask?.snapshot?.address.phone ??
        ask?.snapshot?.phone ??
        delivery?.customerPhone ??
        null,
    ),
    tracking: trackingOf(delivery),
    question:
      ask?.state === "asked"
        ? {
            questions: ask.questions,
            reasons: ask.reasons,
            doubt: await doubtOf(rows),
            answerBy: ask.answerBy?.toISOString() ?? null,
          }
        : null,
    answered:
      ask?.answer && ask.answeredAt
        ? {
            kind: ask.answer.kind,
            at: ask.answeredAt.toISOString(),
            cashConfirmed: ask.answer.cashConfirmed,
            availability: ask.answer.availability ?? null,
          }
        : null,
    secondChance:
      // Answered too: a change given again keeps asking when they will be in.
      ask?.kind === "after_failed_attempt" && (ask.state === "asked" || ask.state === "answered")
        ? { days: whenChoices(now) }
        : null,
    place: directory ? await placeOf(rows, directory) : null,
    typed: typedOf(rows),
    canChange,
    refusal,
    choices: canChange && directory ? choicesOf(directory) : null,
  };
}

function cashOf({ ask, delivery }: ShopperPageRows): string | null {
  if (delivery?.cashToCollect) return formatKwd(kwdToFils(delivery.cashToCollect));
  const fils = ask?.snapshot?.cashToCollectFils;
  return fils ? formatKwd(fils as Fils) : null;
}

function trackingOf(delivery: PageDelivery | null): ShopperPageView["tracking"] {
  if (!delivery?.courierOrderNumber) return null;
  const steps = trackingSteps(delivery.events, delivery.state);
  return {
    ...steps,
    number: delivery.courierOrderNumber,
    expectedDay:
      steps.outcome === null && delivery.sent
        ? expectedDeliveryDay(delivery.sent.pickupDate)
        : null,
  };
}

/** A phone the merchant gave, as WhatsApp's click-to-chat wants it: digits with the country. */
export function whatsappNumber(phone: string | null): string | null {
  if (!phone) return null;
  const digits = phone
    .replace(/[^\d+]/g, "")
    .replace(/^\+/, "")
    .replace(/^00/, "");
  if (/^[2569]\d{7}$/.test(digits)) return `965${digits}`;
  return /^\d{8,15}$/.test(digits) ? digits : null;
}

/** Why the area the order names is in doubt: the matcher's own words for it, as data. */
async function doubtOf(rows: ShopperPageRows): Promise<AddressDoubt | null> {
  const { ask } = rows;
  const typed = ask?.snapshot?.address;
  if (
    !typed ||
    !ask.reasons.some((reason) => reason === "area_not_sure" || reason === "area_not_recognised")
  )
    return null;
  return matchAddress(typed, { overrides: await listAreaOverrides(rows.shop) }).doubt;
}

function typedOf({ ask }: ShopperPageRows): string | null {
  const a = ask?.snapshot?.address;
  if (!a) return null;
  return [a.address1, a.address2, a.city].filter(Boolean).join(", ") || null;
}

/** The place the app has for the order now: the answer, what it sent, else its reading. */
async function placeOf(rows: ShopperPageRows, directory: CourierDirectory) {
  const { ask, delivery } = rows;
  if (ask?.answer && ask.answer.areaId !== null && ask.answer.governanceId !== null)
    return place(directory, ask.answer.governanceId, ask.answer.areaId, ask.answer.parts);
  if (delivery?.sent) {
    const s = delivery.sent;
    return place(directory, s.governanceId, s.areaId, {
      ...emptyParts(),
      block: s.block || null,
      street: s.street || null,
      avenue: s.avenue || null,
      house: s.house || null,
      building: s.building || null,
      floor: s.floor || null,
    });
  }
  const typed = ask?.snapshot?.address;
  if (!typed) return null;
  const match = matchAddress(typed, { overrides: await listAreaOverrides(rows.shop) });
  const resolution = match.area ? resolveCourierIds(match.area, directory.index) : null;
  if (resolution?.status !== "resolved") return null;
  return place(directory, resolution.governanceId, resolution.areaId, match.parts);
}

function place(
  directory: CourierDirectory,
  governanceId: number,
  areaId: number,
  parts: AddressParts,
): PlaceOnPage | null {
  const row = directory.areas.find((a) => a.id === areaId);
  if (!row) return null;
  const area = gazetteerAreaFor(areaId, directory.index);
  const governorateRow = directory.governances.find((g) => g.id === governanceId);
  const governorate =
    area.status === "found"
      ? GOVERNORATES.find((g) => g.code === area.area.governorateCode)
      : findGovernorate(governorateRow?.name ?? "");
  return {
    governanceId,
    areaId,
    area: {
      en: area.status === "found" ? area.area.nameEn : row.name,
      ar: area.status === "found" ? area.area.nameAr : row.name,
      courier: row.name,
    },
    governorate: {
      en: governorate?.nameEn ?? governorateRow?.name ?? "",
      ar: governorate?.nameAr ?? governorateRow?.name ?? "",
    },
    parts,
    complete: missingForCourier(parts) === null,
  };
}

function choicesOf(directory: CourierDirectory) {
  return {
    governorates: directory.governances.map((g) => {
      const known = findGovernorate(g.name) ?? findGovernorate(g.name.replace(/^محافظة\s+/, ""));
      return { id: g.id, en: known?.nameEn ?? g.name, ar: known?.nameAr ?? g.name };
    }),
    areas: areaChoices(directory),
  };
}
