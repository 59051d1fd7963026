import { findArea, findGovernorate, governorateOfArea, type AddressParts } from "../addresses";
import { parseKuwaitDateTime } from "../courier/format";
import type { StoredMatch } from "../domain/address-match";
import { shopperNoteIn } from "../domain/courier-notes";
import { Unreadable } from "../domain/json-column";
import type { StoredRequest } from "../domain/stored-request";
import { filsFromKwdText, formatFils } from "./money";

/** A name in both languages the label prints side by side. */
export interface BilingualName {
  en: string;
  ar: string;
}

/** Everything one shipping label prints; every text is plain (the document escapes it). */
export interface LabelData {
  deliveryId: string;
  shopName: string;
  courierOrderNumber: string;
  trackingUrl: string | null;
  recipientName: string;
  recipientPhone: string;
  governorate: BilingualName | null;
  area: BilingualName | null;
  parts: Record<
    "block" | "street" | "avenue" | "house" | "building" | "floor" | "apartment" | "paci",
    string | null
  >;
  /** What the shopper typed (address lines and city), for the driver when the parts are not enough. */
  addressAsTyped: string | null;
  /** The shopper's note on the order (delivery instructions), as the courier got it. */
  customerNote: string | null;
  cash: { kind: "collect"; fils: number; text: string } | { kind: "paid" };
  pieces: number | null;
  weight: string | null;
  shopifyOrderName: string | null;
  /** The courier's pickup date and time, in Kuwait time ("24 Nov 2026, 14:30"). */
  pickupDate: string | null;
  reference: string;
}

/** A delivery as the models read it (its JSON columns decoded). */
export interface LabelDelivery {
  id: string;
  orderName: string | null;
  reference: string;
  courierOrderId: string | null;
  courierOrderNumber: string | null;
  trackingUrl: string | null;
  request: StoredRequest | Unreadable | null;
  addressMatch: StoredMatch | Unreadable | null;
  cashToCollect: string | null;
}

export interface LabelOrder {
  /** Shopify's order name ("#1042"); the delivery's own copy is used when null. */
  name: string | null;
}

export interface LabelShop {
  name: string;
}

/** Why a delivery has no label yet, in the merchant's words. */
export class LabelUnavailableError extends Error {
  constructor(
    readonly deliveryId: string,
    message: string,
  ) {
    super(message);
    this.name = "LabelUnavailableError";
  }
}

const KUWAIT_DATE = new Intl.DateTimeFormat("en-GB", {
  timeZone: "Asia/Kuwait",
  day: "2-digit",
  month: "short",
  year: "numeric",
  hour: "2-digit",
  minute: "2-digit",
  hourCycle: "h23",
});

/**
 * The label of a delivery the courier has created: the recipient and the place from the request
 * the courier received (names of the area and governorate in English and Arabic from the
 * gazetteer), the money from the delivery's own record. Pure: no clock, no database.
 */
export function labelDataFromDelivery(
  delivery: LabelDelivery,
  order: LabelOrder | null,
  shop: LabelShop,
): LabelData {
  const courierOrderNumber = delivery.courierOrderNumber ?? delivery.courierOrderId;
  if (!courierOrderNumber) {
    throw new LabelUnavailableError(
      delivery.id,
      "The courier has not created this delivery yet, so it has no number to print.",
    );
  }
  // What no longer reads is printed as missing ("—"); the rest of the label stands.
  const request = readable(delivery.request)?.body;
  const match = readable(delivery.addressMatch) ?? {};
  const address = request?.deliveryAddress ?? null;
  const area = match.area ? findArea(match.area) : undefined;
  const governorate =
    (area && governorateOfArea(area)) ??
    (match.governorate ? findGovernorate(match.governorate) : undefined);
  const sentParts: Partial<AddressParts> = address
    ? {
        block: address.block,
        street: address.street,
        avenue: address.avenue,
        house: address.house,
        building: address.building,
        floor: address.floor,
      }
    : {};
  const part = (name: keyof AddressParts): string | null =>
    textOrNull(match.parts?.[name]) ?? textOrNull(sentParts[name]);
  const phone = [textOrNull(address?.contactCountryCode), textOrNull(address?.contactPhone)]
    .filter(Boolean)
    .join(" ");
  const fils = delivery.cashToCollect ? filsFromKwdText(delivery.cashToCollect) : null;
  if (delivery.cashToCollect && fils === null) {
    throw new LabelUnavailableError(
      delivery.id,
      `The amount to collect (${delivery.cashToCollect}) is not an amount in KWD.`,
    );
  }
  const pickup = request ? parseKuwaitDateTime(request.pickupDate) : null;
  const weight = request?.packageDetails.weight;
  return {
    deliveryId: delivery.id,
    shopName: shop.name,
    courierOrderNumber,
    trackingUrl: delivery.trackingUrl,
    recipientName: textOrNull(address?.contactName) ?? "—",
    recipientPhone: phone || "—",
    governorate: governorate ? { en: governorate.nameEn, ar: governorate.nameAr } : null,
    area: area ? { en: area.nameEn, ar: area.nameAr } : null,
    parts: {
      block: part("block"),
      street: part("street"),
      avenue: part("avenue"),
      house: part("house"),
      building: part("building"),
      floor: part("floor"),
      apartment: part("apartment"),
      paci: part("paci"),
    },
    addressAsTyped:
      [match.input?.address1, match.input?.address2, match.input?.city]
        .map(textOrNull)
        .filter(Boolean)
        .join("، ") || null,
    customerNote: shopperNoteIn(request?.notes, delivery.reference),
    cash:
      fils !== null && fils > 0
        ? { kind: "collect", fils, text: formatFils(fils) }
        : { kind: "paid" },
    pieces: piecesFromDescription(request?.packageDetails.description),
    weight: typeof weight === "number" && Number.isFinite(weight) ? `${weight} kg` : null,
    shopifyOrderName: order?.name ?? delivery.orderName,
    pickupDate: pickup ? KUWAIT_DATE.format(pickup) : null,
    reference: delivery.reference,
  };
}

/**
 * Pieces in the parcel from the request's item list as buildDeliveryRequest writes it: the sum of
 * "2 × Shirt, 1 × Hat", or, when the list was too long and cut, the count it ends with
 * ("2 × Shirt, 1 × H… (42 pieces in all)"). Null when the text is not such a list, and for a list
 * cut before the count was written (requests built before it was): a count of what is left would
 * be short.
 */
export function piecesFromDescription(description: unknown): number | null {
  if (typeof description !== "string" || description === "") return null;
  const cut = /…\s\((\d+) pieces? in all\)$/.exec(description);
  if (cut) return Number(cut[1]);
  if (description.endsWith("…")) return null;
  const counts = [...description.matchAll(/(?:^|, )(\d+) × /g)].map((m) => Number(m[1]));
  return counts.length > 0 && description.startsWith(`${counts[0]} × `)
    ? counts.reduce((sum, n) => sum + n, 0)
    : null;
}

function readable<T>(value: T | Unreadable | null): T | null {
  return value instanceof Unreadable ? null : value;
}

function textOrNull(value: unknown): string | null {
  if (typeof value === "number") return String(value);
  if (typeof value !== "string") return null;
  const trimmed = value.trim();
  return trimmed === "" ? null : trimmed;
}
