import {
  GraphqlQueryError,
  HttpInternalError,
  HttpRequestError,
  HttpResponseError,
  HttpThrottlingError,
} from "@shopify/shopify-api";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { canMove } from "../../app/domain/states";
import { recognizeStatus, type StatusMeaning } from "../../app/domain/courier-status";
import {
  nextSyncDelayMs,
  parseCourierTime,
  planTrackingUpdate,
  trackingMoveAllowed,
  type CourierEvent,
  type TrackingSnapshot,
} from "../../app/domain/tracking-plan";
import { shopifyFailureKind, shopifyFailureMessage } from "../../app/shopify/fulfillment-events";
import { ShopifyReplyError } from "../../app/shopify/graphql";

// The sandbox's statuses (sandbox/README.md), with their Arabic and English names.
const SANDBOX_STATUSES: [string, string, string, StatusMeaning][] = [
  ["pending", "قيد الانتظار", "Pending", { state: "created", shopify: null }],
  ["accepted", "تم قبول الطلب", "Accepted", { state: "created", shopify: "CONFIRMED" }],
  ["assigned", "تم تعيين السائق", "Driver assigned", { state: "created", shopify: "CONFIRMED" }],
  [
    "picked_up",
    "تم الاستلام من المرسل",
    "Picked up",
    { state: "picked_up", shopify: "CARRIER_PICKED_UP" },
  ],
  ["in_transit", "في الطريق", "In transit", { state: "in_transit", shopify: "IN_TRANSIT" }],
  [
    "out_for_delivery",
    "خرج للتوصيل",
    "Out for delivery",
    { state: "out_for_delivery", shopify: "OUT_FOR_DELIVERY" },
  ],
  ["delivered", "تم التوصيل", "Delivered", { state: "delivered", shopify: "DELIVERED" }],
  [
    "delivery_failed",
    "تعذر التوصيل",
    "Delivery attempt failed",
    { state: "failed", shopify: "ATTEMPTED_DELIVERY" },
  ],
  ["returned", "أعيد إلى المرسل", "Returned", { state: "returned", shopify: "FAILURE" }],
  ["cancelled", "ملغي", "Cancelled", { state: "cancelled", shopify: null }],
];

describe("recognizing the courier's statuses", () => {
  it.each(SANDBOX_STATUSES)(
    "recognizes %s by its code, its Arabic name or its English name",
    (code, ar, en, meaning) => {
      expect(recognizeStatus(code)).toEqual(meaning);
      // An opaque code leaves the name to decide, in either language.
      expect(recognizeStatus("S17", ar)).toEqual(meaning);
      expect(recognizeStatus("S17", en)).toEqual(meaning);
    },
  );

  it("reads another courier's not delivered as a failed attempt, not as delivered", () => {
    expect(recognizeStatus("NOT_DELIVERED")?.state).toBe("failed");
    expect(recognizeStatus("X", "لم يتم التوصيل")?.state).toBe("failed");
  });

  it("reads another courier's delay as DELAYED on Shopify, moving nothing", () => {
    expect(recognizeStatus("X", "تأخير في التوصيل")).toEqual({
      state: "unchanged",
      shopify: "DELAYED",
    });
  });

  it("reads another courier's returned, whatever its spelling of the hamza", () => {
    expect(recognizeStatus("RETURNED_TO_SHIPPER")?.state).toBe("returned");
    expect(recognizeStatus("X", "أُعيد للمرسل")?.state).toBe("returned");
  });

  const created: StatusMeaning = { state: "created", shopify: null };
  const confirmed: StatusMeaning = { state: "created", shopify: "CONFIRMED" };
  const pickedUp: StatusMeaning = { state: "picked_up", shopify: "CARRIER_PICKED_UP" };
  const inTransit: StatusMeaning = { state: "in_transit", shopify: "IN_TRANSIT" };
  const outForDelivery: StatusMeaning = { state: "out_for_delivery", shopify: "OUT_FOR_DELIVERY" };
  const failed: StatusMeaning = { state: "failed", shopify: "ATTEMPTED_DELIVERY" };
  const delayed: StatusMeaning = { state: "unchanged", shopify: "DELAYED" };
  const delivered: StatusMeaning = { state: "delivered", shopify: "DELIVERED" };
  const returned: StatusMeaning = { state: "returned", shopify: "FAILURE" };
  const cancelled: StatusMeaning = { state: "cancelled", shopify: null };
  // Names other couriers use, as a code or as a name; null: not clearly recognized, left unmapped.
  const NAMES: [string, StatusMeaning | null][] = [
    ...SANDBOX_STATUSES.flatMap(([code, ar, en, meaning]): [string, StatusMeaning][] => [
      [code, meaning],
      [ar, meaning],
      [en, meaning],
    ]),
    // Waiting for something: nothing has happened yet.
    ["Awaiting pickup", created],
    ["AWAITING_PICKUP", created],
    ["Ready for pickup", created],
    ["Pickup scheduled", created],
    ["بانتظار الاستلام", created],
    ["جاهز للاستلام", created],
    ["Delivery attempt scheduled", created],
    ["Driver on the way to pickup", confirmed],
    ["في الطريق إلى الاستلام", confirmed],
    ["Order confirmed", confirmed],
    ["New", created],
    // Pickup, and what only sounds like it.
    ["Pickup completed", pickedUp],
    ["PICKUP_COMPLETED", pickedUp],
    ["Collected from sender", pickedUp],
    ["تم استلام الشحنة", pickedUp],
    ["Pickup failed", null],
    ["تعذر الاستلام", null],
    ["Not picked up", null],
    ["Picked up by customer", null],
    // On the way.
    ["Arrived at sorting hub", inTransit],
    ["Delivered to hub", inTransit],
    ["في المستودع", inTransit],
    ["Driver on the way to customer", outForDelivery],
    ["جاري التوصيل", outForDelivery],
    ["Delayed due to weather", delayed],
    ["تأخير", delayed],
    ["Translated", null],
    // Failed attempts.
    ["Not delivered", failed],
    ["Customer refused", failed],
    ["Recipient unreachable", failed],
    ["محاولة توصيل فاشلة", failed],
    // Final states only from phrases that say so.
    ["Delivered to customer", delivered],
    ["Shipment delivered", delivered],
    ["تم التوصيل للعميل", delivered],
    ["تم التسليم", delivered],
    ["Delivery completed", delivered],
    ["Partially delivered", null],
    ["Returned to sender", returned],
    ["Returned to shipper", returned],
    ["تم الإرجاع للمرسل", returned],
    ["Return to hub", null],
    ["RETURN_TO_HUB", null],
    ["Returning to sender", null],
    ["Return initiated", null],
    ["مرتجع إلى المستودع", null],
    ["Cancelled by customer", cancelled],
    ["Order canceled", cancelled],
    ["ملغى", cancelled],
    ["تم الإلغاء", cancelled],
    ["Cancellation requested", null],
    ["Renewed", null],
  ];

  it.each(NAMES)("%s", (name, meaning) => {
    expect(recognizeStatus(name)).toEqual(meaning);
    expect(recognizeStatus("S17", name)).toEqual(meaning);
  });

  it("leaves a status it cannot read unmapped rather than guess", () => {
    expect(recognizeStatus("held_at_customs")).toBeNull();
    expect(recognizeStatus("S42", "حالة خاصة")).toBeNull();
    expect(recognizeStatus("S42", null, "")).toBeNull();
  });
});

describe("moves from tracking", () => {
  it("go forward only", () => {
    expect(trackingMoveAllowed("created", "in_transit")).toBe(true);
    expect(trackingMoveAllowed("in_transit", "picked_up")).toBe(false);
    expect(trackingMoveAllowed("out_for_delivery", "failed")).toBe(true);
  });

  it("let a failed attempt go out again, but not back to pickup", () => {
    expect(trackingMoveAllowed("failed", "out_for_delivery")).toBe(true);
    expect(trackingMoveAllowed("failed", "picked_up")).toBe(false);
  });

  it("never move a final state", () => {
    expect(trackingMoveAllowed("delivered", "returned")).toBe(false);
    expect(trackingMoveAllowed("cancelled", "delivered")).toBe(false);
  });

  it("never move a delivery the courier does not have yet", () => {
    expect(trackingMoveAllowed("ready", "delivered")).toBe(false);
  });

  it("every move tracking allows, the state machine allows too", () => {
    const states = ["created", "picked_up", "in_transit", "out_for_delivery", "failed"] as const;
    const targets = [...states, "delivered", "returned", "cancelled"] as const;
    for (const from of states)
      for (const to of targets)
        if (trackingMoveAllowed(from, to)) expect(canMove(from, to), `${from} → ${to}`).toBe(true);
  });
});

const meanings = new Map(SANDBOX_STATUSES.map(([code, , , meaning]) => [code, meaning]));
const meaningOf = (event: CourierEvent) => meanings.get(event.status) ?? null;
const at = (second: number) => new Date(Date.UTC(2026, 10, 22, 9, 0, second));
const fresh: TrackingSnapshot = {
  state: "created",
  courierStatus: "pending",
  courierStatusAt: at(0),
  shopifyEventStatus: null,
};
const LIFE: CourierEvent[] = [
  { status: "pending", at: at(0) },
  { status: "accepted", at: at(10) },
  { status: "assigned", at: at(20) },
  { status: "picked_up", at: at(30) },
  { status: "in_transit", at: at(40) },
  { status: "out_for_delivery", at: at(50) },
  { status: "delivered", at: at(59) },
];

/** Applies steps in order, as the sync does, and returns the final snapshot and Shopify writes. */
function run(snapshot: TrackingSnapshot, batches: CourierEvent[][]) {
  let current = snapshot;
  const writes: string[] = [];
  const states: string[] = [current.state];
  for (const batch of batches) {
    for (const step of planTrackingUpdate(current, batch, meaningOf)) {
      if (step.shopify) writes.push(step.shopify);
      if (step.moveTo) states.push(step.moveTo);
      current = step.after;
    }
  }
  return { current, writes, states };
}

describe("planning a tracking update", () => {
  it("a whole life gives one Shopify event per change of Shopify status, in order", () => {
    const steps = planTrackingUpdate(fresh, LIFE, meaningOf);
    expect(steps.map((s) => s.event.status)).toEqual(LIFE.slice(1).map((e) => e.status));
    expect(steps.map((s) => s.shopify)).toEqual([
      "CONFIRMED",
      null, // assigned is CONFIRMED again: not written twice
      "CARRIER_PICKED_UP",
      "IN_TRANSIT",
      "OUT_FOR_DELIVERY",
      "DELIVERED",
    ]);
    expect(steps.at(-1)?.after).toEqual({
      state: "delivered",
      courierStatus: "delivered",
      courierStatusAt: at(59),
      shopifyEventStatus: "DELIVERED",
    });
  });

  it("the same reply twice gives nothing the second time", () => {
    const first = run(fresh, [LIFE.slice(0, 4)]);
    expect(planTrackingUpdate(first.current, LIFE.slice(0, 4), meaningOf)).toEqual([]);
  });

  it("several statuses in the same second keep the courier's order, and are not repeated", () => {
    const sameSecond = LIFE.map((e) => ({ ...e, at: at(5) }));
    const once = run({ ...fresh, courierStatusAt: at(5) }, [sameSecond.slice(0, 3)]);
    expect(once.current.courierStatus).toBe("assigned");
    const twice = run(once.current, [sameSecond]);
    expect(twice.states).toEqual([
      "created",
      "picked_up",
      "in_transit",
      "out_for_delivery",
      "delivered",
    ]);
    expect(planTrackingUpdate(twice.current, sameSecond, meaningOf)).toEqual([]);
  });

  it("a late push of an older status never moves the delivery back nor writes to Shopify", () => {
    const there = run(fresh, [LIFE.slice(0, 5)]).current; // in transit, since second 40
    expect(planTrackingUpdate(there, [{ status: "picked_up", at: at(30) }], meaningOf)).toEqual([]);
    expect(planTrackingUpdate(there, [{ status: "accepted", at: at(10) }], meaningOf)).toEqual([]);
    // Dated after, yet earlier in the life: recorded, not applied.
    const [odd] = planTrackingUpdate(there, [{ status: "picked_up", at: at(45) }], meaningOf);
    expect(odd).toMatchObject({ moveTo: null, shopify: null, after: { state: "in_transit" } });
  });

  it("a failed attempt that goes out again writes every Shopify status change", () => {
    const failOnce: CourierEvent[] = [
      ...LIFE.slice(0, 6),
      { status: "delivery_failed", at: at(52) },
      { status: "out_for_delivery", at: at(55) },
      { status: "delivered", at: at(59) },
    ];
    const { writes, current } = run(fresh, [failOnce]);
    expect(writes).toEqual([
      "CONFIRMED",
      "CARRIER_PICKED_UP",
      "IN_TRANSIT",
      "OUT_FOR_DELIVERY",
      "ATTEMPTED_DELIVERY",
      "OUT_FOR_DELIVERY",
      "DELIVERED",
    ]);
    expect(current.state).toBe("delivered");
  });

  /** An unmapped status, then news the courier gives after it. */
  const unmappedThenPickedUp = () =>
    planTrackingUpdate(
      fresh,
      [
        { status: "held_at_customs", at: at(15), name: "Held" },
        { status: "picked_up", at: at(30) },
      ],
      meaningOf,
    );

  it("an unmapped status is recorded without moving the delivery or writing to Shopify", () => {
    const steps = unmappedThenPickedUp();
    expect(steps[0]).toMatchObject({ mapped: false, moveTo: null, shopify: null });
    expect(steps[0]?.message).toContain("not mapped");
  });

  it("an unmapped status does not hold back the news after it", () => {
    const steps = unmappedThenPickedUp();
    expect(steps[1]).toMatchObject({ mapped: true, moveTo: "picked_up" });
  });

  it("an undated reply is news only when its status differs from the current one", () => {
    const known = { ...fresh, courierStatus: "in_transit", state: "in_transit" as const };
    expect(planTrackingUpdate(known, [{ status: "in_transit", at: null }], meaningOf)).toEqual([]);
    const [step] = planTrackingUpdate(known, [{ status: "out_for_delivery", at: null }], meaningOf);
    expect(step?.moveTo).toBe("out_for_delivery");
    expect(step?.after.courierStatusAt).toEqual(known.courierStatusAt);
  });

  /** In transit since second 40, then out for delivery dated a year ahead, read at second 45. */
  function outForDeliveryNextYear() {
    const nextYear = new Date(at(0).getTime() + 365 * 86_400_000);
    const inTransit = run(fresh, [LIFE.slice(0, 5)]).current; // since second 40
    const [out] = planTrackingUpdate(
      inTransit,
      [{ status: "out_for_delivery", at: nextYear }],
      meaningOf,
      at(45),
    );
    return { nextYear, inTransit, out };
  }

  it("a time later than now is read as now, so Shopify is never told a future time", () => {
    const { out } = outForDeliveryNextYear();
    expect(out).toMatchObject({ moveTo: "out_for_delivery", shopify: "OUT_FOR_DELIVERY" });
    expect(out?.event.at).toEqual(at(45));
    expect(out?.after.courierStatusAt).toEqual(at(45));
  });

  it("later news still comes after a time read as now", () => {
    const { nextYear, out } = outForDeliveryNextYear();
    // The courier's history, with the wrong time still in it, then delivered at the right time.
    const history = [...LIFE.slice(0, 5), { status: "out_for_delivery", at: nextYear }];
    const steps = planTrackingUpdate(
      out!.after,
      [...history, { status: "delivered", at: at(50) }],
      meaningOf,
      at(55),
    );
    expect(steps.map((s) => [s.moveTo, s.shopify, s.event.at])).toEqual([
      ["delivered", "DELIVERED", at(50)],
    ]);
    // Looked at again later: nothing new, however far "now" has moved.
    expect(planTrackingUpdate(out!.after, history, meaningOf, at(58))).toEqual([]);
  });

  it("a courier clock a few seconds ahead of the app's is taken as it is", () => {
    const { inTransit } = outForDeliveryNextYear();
    const [ahead] = planTrackingUpdate(
      inTransit,
      [{ status: "out_for_delivery", at: at(50) }],
      meaningOf,
      at(45),
    );
    expect(ahead?.after.courierStatusAt).toEqual(at(50));
  });

  it("a wrongly dated status that changes nothing is not recorded again at every sync", () => {
    const nextYear = new Date(at(0).getTime() + 365 * 86_400_000);
    const history = [...LIFE.slice(0, 4), { status: "accepted", at: nextYear }];
    const first = run(fresh, [history]);
    expect(first.current.state).toBe("picked_up");
    const later = [...history, { status: "in_transit", at: at(40) }];
    const steps = planTrackingUpdate(first.current, later, meaningOf, at(45));
    expect(steps.map((s) => s.event.status)).toEqual(["in_transit"]);
    expect(planTrackingUpdate(steps[0]!.after, later, meaningOf, at(50))).toEqual([]);
  });

  it("a final state is not hidden by a time earlier than the current status's", () => {
    const out = run(fresh, [LIFE.slice(0, 6)]).current; // out for delivery since second 50
    // Pushed with a time before the current status (the courier's clock or a typo).
    const [pushed] = planTrackingUpdate(
      out,
      [{ status: "delivered", at: at(45) }],
      meaningOf,
      at(59),
    );
    expect(pushed).toMatchObject({ moveTo: "delivered", shopify: "DELIVERED" });
    // In a polled history too, where it sorts before the status the delivery is anchored on.
    const polled = planTrackingUpdate(
      out,
      [...LIFE.slice(0, 6), { status: "returned", at: at(1) }],
      meaningOf,
      at(59),
    );
    expect(polled.map((s) => s.moveTo)).toEqual(["returned"]);
    // A final state already applied is not applied twice.
    expect(
      planTrackingUpdate(polled[0]!.after, [{ status: "returned", at: at(1) }], meaningOf, at(59)),
    ).toEqual([]);
  });

  it("a status mapped after the delivery reached it moves the delivery now, once", () => {
    const held: TrackingSnapshot = { ...fresh, courierStatus: "held", courierStatusAt: at(15) };
    const unmapped = planTrackingUpdate(held, [{ status: "held", at: at(15) }], meaningOf, at(20));
    expect(unmapped).toEqual([]);
    const mapped = (event: CourierEvent): StatusMeaning | null =>
      event.status === "held" ? { state: "in_transit", shopify: "IN_TRANSIT" } : meaningOf(event);
    const steps = planTrackingUpdate(
      held,
      [{ status: "held", at: at(15), name: "Held" }],
      mapped,
      at(20),
    );
    expect(steps).toHaveLength(1);
    expect(steps[0]).toMatchObject({
      moveTo: "in_transit",
      shopify: "IN_TRANSIT",
      event: { status: "held", at: at(15) },
      after: { state: "in_transit", courierStatus: "held", courierStatusAt: at(15) },
    });
    expect(steps[0]?.message).toContain("Held (held)");
    // Without the courier saying it again (nothing reported), the same.
    expect(planTrackingUpdate(held, [], mapped, at(20)).map((s) => s.moveTo)).toEqual([
      "in_transit",
    ]);
    expect(
      planTrackingUpdate(steps[0]!.after, [{ status: "held", at: at(15) }], mapped, at(25)),
    ).toEqual([]);
    // Mapped to an earlier state than the delivery's: nothing moves back.
    const ahead = { ...held, state: "out_for_delivery" as const };
    expect(planTrackingUpdate(ahead, [], mapped, at(20))).toEqual([]);
  });

  it("however events are repeated, shuffled or split, the delivery ends the same and never goes back", () => {
    const rank = ["created", "picked_up", "in_transit", "out_for_delivery", "delivered"];
    fc.assert(
      fc.property(
        fc.array(fc.integer({ min: 0, max: LIFE.length - 1 }), { minLength: 0, maxLength: 30 }),
        fc.integer({ min: 1, max: 5 }),
        (picks, parts) => {
          // Pushes in any order and repeated, then a full poll as the safety net.
          const pushes = picks.map((i) => [LIFE[i]!]);
          const chunks = Array.from({ length: parts }, () => [] as CourierEvent[][]);
          pushes.forEach((p, i) => chunks[i % parts]!.push(p));
          const { current, states, writes } = run(fresh, [...chunks.flat(), LIFE]);
          expect(current.state).toBe("delivered");
          const ranks = states.map((s) => rank.indexOf(s));
          expect([...ranks].sort((a, b) => a - b)).toEqual(ranks);
          expect(new Set(writes).size).toBe(writes.length);
        },
      ),
      { numRuns: 300 },
    );
  });
});

describe("cadence", () => {
  const now = at(0);
  it("syncs sooner when out for delivery, less often when nothing moves, never when final", () => {
    expect(nextSyncDelayMs("out_for_delivery", now, now)).toBe(5 * 60_000);
    expect(nextSyncDelayMs("created", now, now)).toBe(30 * 60_000);
    const quiet = new Date(now.getTime() - 2 * 86_400_000);
    expect(nextSyncDelayMs("in_transit", quiet, now)).toBe(2 * 3_600_000);
    const stuck = new Date(now.getTime() - 4 * 86_400_000);
    expect(nextSyncDelayMs("in_transit", stuck, now)).toBe(6 * 3_600_000);
    expect(nextSyncDelayMs("delivered", now, now)).toBeNull();
    expect(nextSyncDelayMs("cancelled", now, now)).toBeNull();
  });
});

describe("courier times", () => {
  it("reads Kuwait local time (UTC+3) and ISO times with offsets", () => {
    expect(parseCourierTime("2026-11-22T12:00:00")?.toISOString()).toBe("2026-11-22T09:00:00.000Z");
    expect(parseCourierTime("2026-11-22 12:00")?.toISOString()).toBe("2026-11-22T09:00:00.000Z");
    expect(parseCourierTime("2026-11-22T09:00:00Z")?.toISOString()).toBe(
      "2026-11-22T09:00:00.000Z",
    );
    expect(parseCourierTime("2026-11-22T12:30:00.250+03:30")?.toISOString()).toBe(
      "2026-11-22T09:00:00.250Z",
    );
    expect(parseCourierTime("yesterday")).toBeNull();
    expect(parseCourierTime(null)).toBeNull();
  });

  it("a date or time that does not exist is no time at all, rather than a day later", () => {
    expect(parseCourierTime("2026-02-31T10:00:00")).toBeNull();
    expect(parseCourierTime("2026-02-29T10:00:00")).toBeNull();
    expect(parseCourierTime("2026-13-01T10:00:00")).toBeNull();
    expect(parseCourierTime("2026-11-22T24:00:00")).toBeNull();
    expect(parseCourierTime("2026-11-22T10:60:00")).toBeNull();
    expect(parseCourierTime("2026-11-22T10:00:61Z")).toBeNull();
    expect(parseCourierTime("2026-11-22T10:00:00+25:00")).toBeNull();
    // Leap years still have their 29 February.
    expect(parseCourierTime("2028-02-29T12:00:00")?.toISOString()).toBe("2028-02-29T09:00:00.000Z");
  });
});

describe("what a Shopify failure means for the sync", () => {
  const response = (code: number) => ({
    message: `Received an error response (${code}) from Shopify:\n{"errors":"..."}`,
    code,
    statusText: "",
    body: {},
    headers: {},
  });
  const graphqlError = (code: string) =>
    new GraphqlQueryError({
      message: `${code} happened`,
      response: {} as never,
      body: { errors: { graphQLErrors: [{ message: `${code} happened`, extensions: { code } }] } },
    });

  it.each([
    ["THROTTLED in a 200 reply", graphqlError("THROTTLED"), "throttled"],
    ["a 429", new HttpThrottlingError({ ...response(429), retryAfter: 1 }), "throttled"],
    ["a 5xx", new HttpInternalError(response(502)), "unavailable"],
    [
      "no reply at all",
      new HttpRequestError("Http request error, no response available"),
      "unavailable",
    ],
    ["INTERNAL_SERVER_ERROR in a 200 reply", graphqlError("INTERNAL_SERVER_ERROR"), "unavailable"],
    ["ACCESS_DENIED", graphqlError("ACCESS_DENIED"), "refused"],
    ["a 403", new HttpResponseError(response(403)), "refused"],
    ["a 404", new HttpResponseError(response(404)), "refused"],
    [
      "userErrors",
      new ShopifyReplyError("Shopify refused the shipment status: x", "Op"),
      "refused",
    ],
    ["a bug", new TypeError("undefined is not a function"), null],
  ] as const)("%s", (_, error, kind) => {
    expect(shopifyFailureKind(error)).toBe(kind);
  });

  it("says a refusal in one line, without the reply's body", () => {
    expect(shopifyFailureMessage(new HttpResponseError(response(403)))).toBe(
      "Received an error response (403) from Shopify",
    );
    expect(shopifyFailureMessage(graphqlError("ACCESS_DENIED"))).toBe("ACCESS_DENIED happened");
  });
});
