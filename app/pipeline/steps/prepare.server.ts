import { matchAddress, resolveCourierIds, type AddressParts } from "../../addresses";
import type { ShopperAnswer } from "../../domain/shopper-ask";
import { answeredPlacement } from "../../models/shopper-asks.server";
import { notesWithAvailability } from "../../domain/second-chance";
import { languageOf } from "../../i18n/languages";
import { listAreaOverrides } from "../../models/area-overrides.server";
import {
  findBalanceCollector,
  keepLineItemsRead,
  type DeliveryRow,
} from "../../models/deliveries.server";
import { BalanceCollectedElsewhereError } from "../../models/delivery-state";
import { getPickupLocation } from "../../models/pickup-locations.server";
import { getShopSettings } from "../../models/shop.server";
import { loadCourierDirectory } from "../../services/courier-directory.server";
import { LineItemsReadStopped, readDeliveryFulfillment } from "../../shopify/fulfillments";
import { addressMatchColumn, type StoredMatch } from "../../domain/address-match";
import { Unreadable } from "../../domain/json-column";
import { lineItemsReadColumn } from "../../domain/line-items-read";
import {
  buildDeliveryRequest,
  currencyProblem,
  parcelCharge,
  type OrderForDelivery,
} from "../../domain/request";
import { customerListFields } from "../../models/read/delivery-list";
import { requestColumn } from "../../domain/stored-request";
import { doubtText } from "../../domain/address-doubt";
import { eventText } from "../../domain/timeline-text";
import {
  move,
  needsAttention,
  now,
  stepFailed,
  type Actor,
  type Step,
  adminOf,
} from "./shared.server";

/** pending: load the order, place the address, build the request. */
export const prepare: Step = async (delivery, deps) => {
  if (!delivery.fulfillmentId) {
    // "Send to courier" wrote the intent; Shopify's fulfillment (or its webhook) has not come.
    return stepFailed(
      delivery,
      deps,
      new Error("Waiting for the Shopify fulfillment this delivery was sent for."),
      () =>
        'Shopify\'s fulfillment for this "Send to courier" never arrived: the app may have stopped while fulfilling the order. Check the order in Shopify; if it is not fulfilled, cancel this delivery and send the order again.',
    );
  }
  const admin = await adminOf(delivery, deps);
  // A large fulfillment's read goes on where Shopify's budget stopped the last attempt (issue 24).
  const resume = delivery.lineItemsRead instanceof Unreadable ? null : delivery.lineItemsRead;
  let fulfillment: Awaited<ReturnType<typeof readDeliveryFulfillment>>;
  try {
    fulfillment = await readDeliveryFulfillment(admin, delivery.fulfillmentId, resume);
  } catch (error) {
    if (!(error instanceof LineItemsReadStopped)) throw error;
    await keepLineItemsRead(delivery, deps.owner, lineItemsReadColumn.encode(error.progress));
    return stepFailed(delivery, deps, error.reason);
  }
  if (!fulfillment) {
    return move(
      delivery,
      deps,
      "skipped",
      {
        kind: "skipped",
        message: "Shopify no longer has this fulfillment.",
      },
      {
        stateReason: "The fulfillment was deleted in Shopify.",
        nextAttemptAt: null,
        leaseOwner: null,
        leaseExpiresAt: null,
      },
    );
  }
  const currency = currencyProblem(fulfillment.order);
  if (currency) {
    return needsAttention(delivery, deps, currency, orderFields(fulfillment.order));
  }
  const [settings, pickup, directory, overrides] = await Promise.all([
    getShopSettings(delivery.shop),
    getPickupLocation(delivery.shop, fulfillment.locationId ?? delivery.locationId ?? ""),
    loadCourierDirectory(delivery.shop, delivery.environment),
    listAreaOverrides(delivery.shop),
  ]);
  if (!settings || !pickup || !directory) {
    const reason = !pickup
      ? "The location this order ships from has no confirmed pickup address."
      : "The courier's areas are not loaded: test the connection in Settings.";
    return holdForAddress(
      delivery,
      deps,
      fulfillment.order,
      {
        kind: "waiting",
        message: reason,
        data: { text: eventText(!pickup ? "no_pickup_address" : "courier_areas_not_loaded") },
      },
      { stateReason: reason },
      null,
    );
  }

  // The shopper placed it on their page (issue 26): their answer is the place, as the merchant's
  // would be; the matcher is not asked again.
  const answered = await answeredPlacement(delivery.shop, delivery.orderId);
  if (answered) {
    const { answer } = answered;
    const parts = partsOfAnswer(answer);
    return buildAndQueue(delivery, deps, {
      order: fulfillment.order,
      settings,
      pickup,
      destination: {
        governanceId: answer.governanceId!,
        areaId: answer.areaId!,
        parts,
        contactPhone: answer.phone,
        location:
          answer.latitude !== null && answer.longitude !== null
            ? { latitude: answer.latitude, longitude: answer.longitude }
            : null,
        // After a failed attempt, when the customer will be in goes first (issue 27).
        notes: notesWithAvailability(answer.notes, answer.availability),
      },
      matchRecord: {
        input: shopperInput(fulfillment.order.shippingAddress),
        area: answer.areaName?.en ?? null,
        governorate: null,
        confident: true,
        reasons: [
          answer.kind === "confirmed"
            ? "The shopper confirmed this address on their page."
            : "The shopper gave this address on their page.",
        ],
        overrideKey: null,
        parts,
        courier: { governanceId: answer.governanceId!, areaId: answer.areaId! },
        fromShopper: true,
        shopperNotes: notesWithAvailability(answer.notes, answer.availability),
        location:
          answer.latitude !== null && answer.longitude !== null
            ? { latitude: answer.latitude, longitude: answer.longitude }
            : null,
        contactPhone: answer.phone,
      },
    });
  }

  const address = fulfillment.order.shippingAddress;
  const match = matchAddress(
    {
      provinceCode: address?.provinceCode,
      city: address?.city,
      address1: address?.address1,
      address2: address?.address2,
      zip: address?.zip,
      countryCode: address?.countryCode,
    },
    { overrides },
  );
  const resolution = match.area ? resolveCourierIds(match.area, directory.index) : null;
  const matchRecord: StoredMatch = {
    // What the shopper typed, for the review page; personal data, erased by customers/redact.
    input: {
      city: address?.city ?? null,
      address1: address?.address1 ?? null,
      address2: address?.address2 ?? null,
      provinceCode: address?.provinceCode ?? null,
      zip: address?.zip ?? null,
    },
    area: match.area?.nameEn ?? null,
    governorate: match.governorate?.nameEn ?? null,
    confidence: match.confidence,
    confident: match.confident,
    reasons: [...match.reasons, ...(resolution?.reasons ?? [])],
    doubt: match.doubt,
    overrideKey: match.overrideKey,
    parts: match.parts,
    courier:
      resolution?.status === "resolved"
        ? { governanceId: resolution.governanceId, areaId: resolution.areaId }
        : null,
  };
  if (!match.confident || resolution?.status !== "resolved") {
    const reason = !match.area
      ? "The area of the shipping address could not be recognised."
      : resolution?.status === "missing"
        ? `The courier has no area matching ${match.area.nameEn}.`
        : `The address looks like ${match.area.nameEn}, but the app is not sure enough to send it without you.`;
    return holdForAddress(
      delivery,
      deps,
      fulfillment.order,
      {
        kind: "needs_address",
        message: reason,
        data: {
          text:
            resolution?.status === "missing" && match.area
              ? eventText("area_not_at_courier", { area: match.area.nameEn })
              : match.doubt
                ? doubtText(match.doubt)
                : !match.area
                  ? eventText("area_not_recognised")
                  : eventText("area_not_sure", { area: match.area.nameEn }),
        },
      },
      { stateReason: reason, addressMatch: addressMatchColumn.encode(matchRecord) },
      resolution?.status === "resolved" ? resolution : null,
    );
  }
  return buildAndQueue(delivery, deps, {
    order: fulfillment.order,
    settings,
    pickup,
    destination: {
      governanceId: resolution.governanceId,
      areaId: resolution.areaId,
      parts: match.parts,
    },
    matchRecord,
  });
};

/**
 * needs_address (ADR 0065): the address waits for the merchant (or the shopper) before a
 * request is built. The row keeps what the list shows of it (issue 29): the customer and their
 * phone, the place when the courier's ids are known, and the cash the driver will collect. A
 * built delivery has them from its request, through the database's trigger (ADR 0041), which
 * writes them over once this one is built. The cash takes the collection of the order's balance
 * as a built request does (ADR 0026); another delivery taking it first leaves this one without.
 */
async function holdForAddress(
  delivery: DeliveryRow,
  deps: Actor,
  order: OrderForDelivery,
  event: Parameters<typeof move>[3],
  data: { stateReason: string; addressMatch?: string },
  place: { governanceId: number; areaId: number } | null,
): Promise<DeliveryRow> {
  const collector = await findBalanceCollector(delivery.shop, delivery.orderId, delivery.id);
  const charge = parcelCharge(order, collector === null);
  const cash = charge.ok && charge.cashOnDelivery ? charge.value.toFixed(3) : null;
  const address = order.shippingAddress;
  const fields = {
    ...data,
    ...orderFields(order),
    ...customerListFields(address?.name ?? null, address?.phone || order.phone),
    governanceId: place?.governanceId ?? null,
    areaId: place?.areaId ?? null,
    nextAttemptAt: null,
    leaseOwner: null,
    leaseExpiresAt: null,
  };
  try {
    return await move(
      delivery,
      deps,
      "needs_address",
      event,
      { ...fields, cashToCollect: cash },
      cash ? { soleCollectorOf: delivery.orderId } : {},
    );
  } catch (error) {
    if (!(error instanceof BalanceCollectedElsewhereError) || cash === null) throw error;
    return move(delivery, deps, "needs_address", event, { ...fields, cashToCollect: null });
  }
}

/** What a delivery keeps of its order once read: its name, and the language its customer shopped in. */
function orderFields(order: Pick<OrderForDelivery, "name" | "customerLocale">) {
  return { orderName: order.name, customerLanguage: languageOf(order.customerLocale) };
}

/** Builds the request from a placed address; shared by the worker and the address review page. */
export async function buildAndQueue(
  delivery: DeliveryRow,
  deps: Actor,
  input: {
    order: Parameters<typeof buildDeliveryRequest>[0]["order"];
    settings: NonNullable<Awaited<ReturnType<typeof getShopSettings>>>;
    pickup: NonNullable<Awaited<ReturnType<typeof getPickupLocation>>>;
    destination: Parameters<typeof buildDeliveryRequest>[0]["destination"];
    matchRecord: StoredMatch;
  },
): Promise<DeliveryRow | null> {
  // The record keeps the place the request was built for, so "send again" can rebuild it.
  const record: StoredMatch = {
    ...input.matchRecord,
    courier: { governanceId: input.destination.governanceId, areaId: input.destination.areaId },
    parts: input.destination.parts,
  };
  // One delivery of an order collects its balance; the check is repeated inside the move.
  let collector = await findBalanceCollector(delivery.shop, delivery.orderId, delivery.id);
  for (;;) {
    const built = buildDeliveryRequest({
      order: input.order,
      settings: input.settings,
      pickup: input.pickup,
      destination: input.destination,
      reference: delivery.reference,
      collectsBalance: collector === null,
      requestedAt: delivery.createdAt,
      now: now(deps),
    });
    if (!built.ok && built.attention) {
      return needsAttention(delivery, deps, built.problems.join(" "), {
        ...orderFields(input.order),
        addressMatch: addressMatchColumn.encode(record),
      });
    }
    if (!built.ok) {
      const reason = built.problems.join(" ");
      return holdForAddress(
        delivery,
        deps,
        input.order,
        built.missing
          ? {
              kind: "needs_address",
              message: reason,
              data: { text: eventText(`address_missing_${built.missing}`) },
            }
          : { kind: "needs_attention", message: reason },
        { stateReason: reason, addressMatch: addressMatchColumn.encode(record) },
        input.destination,
      );
    }
    const payment = built.cashToCollect
      ? `cash on delivery: the driver collects ${built.cashToCollect} KWD, the order's outstanding balance`
      : built.balanceCollectedElsewhere
        ? "prepaid: another delivery of this order collects its outstanding balance"
        : "prepaid";
    try {
      return await move(
        delivery,
        deps,
        "ready",
        {
          kind: "ready",
          message: `Request built (${payment}); sending to the courier.`,
          data: {
            text: built.cashToCollect
              ? eventText("ready_cod", { amount: built.cashToCollect })
              : eventText(
                  built.balanceCollectedElsewhere ? "ready_collected_elsewhere" : "ready_prepaid",
                ),
          },
        },
        {
          stateReason: null,
          ...orderFields(input.order),
          request: requestColumn.encode(built.body),
          cashToCollect: built.cashToCollect,
          addressMatch: addressMatchColumn.encode(record),
          nextAttemptAt: now(deps),
        },
        built.cashToCollect ? { soleCollectorOf: delivery.orderId } : {},
      );
    } catch (error) {
      // Another delivery of the order took the balance in the meantime: built again, prepaid.
      if (!(error instanceof BalanceCollectedElsewhereError) || collector) throw error;
      collector = await findBalanceCollector(delivery.shop, delivery.orderId, delivery.id);
      if (!collector) throw error;
    }
  }
}

/** The parts of the shopper's answer, in the matcher's shape. */
function partsOfAnswer(answer: ShopperAnswer): AddressParts {
  return { ...answer.parts };
}

/** What the shopper typed at checkout, kept beside their answer for the review page. */
function shopperInput(address: OrderForDelivery["shippingAddress"]) {
  return {
    city: address?.city ?? null,
    address1: address?.address1 ?? null,
    address2: address?.address2 ?? null,
    provinceCode: address?.provinceCode ?? null,
    zip: address?.zip ?? null,
  };
}
