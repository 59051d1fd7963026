import { beforeEach, describe, expect, it } from "vitest";
import {
  AdminGraphqlApi,
  gid,
  ShopifyStandInStore,
  type StandInOrder,
} from "../../sandbox/shopify";
import { TEST_SCOPES } from "../support/test-env";
import { FULFILL, HOLD, RELEASE, STATE } from "./address-check-documents";
import { runGraphql } from "./support";

let store: ShopifyStandInStore;
let api: AdminGraphqlApi;
let order: StandInOrder;
let foId: string;

beforeEach(() => {
  store = new ShopifyStandInStore({
    name: "Oud House",
    clock: () => Date.parse("2026-12-01T09:00:00Z"),
  });
  store.addLocation();
  order = store.addOrder({ payment: "cod", lineItems: [{ quantity: 2 }, { title: "Dates Box" }] });
  foId = gid("FulfillmentOrder", order.fulfillmentOrders[0]!.id);
  api = new AdminGraphqlApi(store);
});

function hold(handle = "address-check", extra: Record<string, unknown> = {}) {
  return runGraphql(api, HOLD, {
    id: foId,
    hold: {
      reason: "INCORRECT_ADDRESS",
      reasonNotes: "Waiting for the shopper to confirm the address",
      handle,
      notifyMerchant: false,
      ...extra,
    },
  }).data!.fulfillmentOrderHold;
}

function release(holdIds?: string[]) {
  return runGraphql(api, RELEASE, { id: foId, ...(holdIds ? { holdIds } : {}) }).data!
    .fulfillmentOrderReleaseHold;
}

function state() {
  return runGraphql(api, STATE, { id: gid("Order", order.id) }).data!;
}

function fulfil() {
  return runGraphql(api, FULFILL, {
    fulfillment: { lineItemsByFulfillmentOrder: [{ fulfillmentOrderId: foId }] },
  }).data!.fulfillmentCreate;
}

describe("fulfillmentOrderHold", () => {
  it("holds the fulfillment order with the reason, notes and handle given", () => {
    const held = hold();
    expect(held).toEqual({
      fulfillmentHold: {
        id: expect.stringMatching(/^gid:\/\/shopify\/FulfillmentHold\/\d+$/),
        handle: "address-check",
        reason: "INCORRECT_ADDRESS",
        reasonNotes: "Waiting for the shopper to confirm the address",
      },
      fulfillmentOrder: { id: foId, status: "ON_HOLD" },
      remainingFulfillmentOrder: null,
      userErrors: [],
    });
  });

  it("shows the hold on the fulfillment order, and the order as on hold, beside the shop's name", () => {
    const { fulfillmentHold } = hold();
    expect(state()).toEqual({
      shop: { name: "Oud House" },
      order: {
        displayFulfillmentStatus: "ON_HOLD",
        fulfillmentOrders: {
          nodes: [
            {
              id: foId,
              status: "ON_HOLD",
              supportedActions: [{ action: "HOLD" }, { action: "RELEASE_HOLD" }],
              fulfillmentHolds: [
                {
                  id: fulfillmentHold.id,
                  handle: "address-check",
                  reason: "INCORRECT_ADDRESS",
                  reasonNotes: "Waiting for the shopper to confirm the address",
                  displayReason: "Incorrect address",
                  heldByRequestingApp: true,
                },
              ],
            },
          ],
        },
      },
    });
  });

  it("refuses fulfillmentCreate on a held fulfillment order, as Shopify words it", () => {
    hold();
    expect(fulfil()).toEqual({
      fulfillment: null,
      userErrors: [
        {
          field: ["fulfillment"],
          message: `Fulfillment order ${foId} has an unfulfillable status= on_hold.`,
        },
      ],
    });
    expect(order.fulfillments).toEqual([]);
  });

  it("refuses the merchant's fulfilment of a held order too", () => {
    hold();
    const outcome = store.tryFulfillOrder(order.id);
    expect(outcome).toEqual({
      ok: false,
      userErrors: [
        {
          field: ["fulfillment"],
          message: `Fulfillment order ${foId} has an unfulfillable status= on_hold.`,
        },
      ],
    });
    expect(() => store.fulfillOrder(order.id)).toThrow(/unfulfillable status= on_hold/);
  });

  it("is lifted by releasing the hold: the fulfillment order is open and can be fulfilled", () => {
    const { fulfillmentHold } = hold();
    expect(release([fulfillmentHold.id])).toEqual({
      fulfillmentOrder: { id: foId, status: "OPEN", fulfillmentHolds: [] },
      userErrors: [],
    });
    expect(state().order.displayFulfillmentStatus).toBe("UNFULFILLED");
    expect(fulfil()).toMatchObject({ fulfillment: { status: "SUCCESS" }, userErrors: [] });
    expect(store.displayFulfillmentStatus(order)).toBe("FULFILLED");
  });

  it("refuses a second hold with a handle the app already uses on that fulfillment order", () => {
    hold("address-check");
    expect(hold("address-check")).toEqual({
      fulfillmentHold: null,
      fulfillmentOrder: null,
      remainingFulfillmentOrder: null,
      userErrors: [
        {
          field: ["fulfillmentHold", "handle"],
          message:
            "The handle provided for the fulfillment hold is already in use by this app for another hold on this fulfillment order.",
          code: "DUPLICATE_FULFILLMENT_HOLD_HANDLE",
        },
      ],
    });
  });

  it("takes the empty handle as the default, so two holds without a handle clash", () => {
    expect(hold("").userErrors).toEqual([]);
    const second = runGraphql(api, HOLD, { id: foId, hold: { reason: "OTHER" } }).data!
      .fulfillmentOrderHold;
    expect(second.userErrors[0].code).toBe("DUPLICATE_FULFILLMENT_HOLD_HANDLE");
  });

  it("accepts a handle again once its hold was released", () => {
    release([hold("address-check").fulfillmentHold.id]);
    expect(hold("address-check").userErrors).toEqual([]);
  });

  it("lets the merchant's holds use the app's handles", () => {
    hold("address-check");
    expect(() => store.holdFulfillmentOrder(foId, { handle: "address-check" })).not.toThrow();
    expect(store.fulfillmentHolds(order.id).map((h) => h.heldBy)).toEqual(["app", "merchant"]);
  });

  it("refuses an eleventh hold from the same app", () => {
    for (let i = 0; i < 10; i += 1) expect(hold(`hold-${i}`).userErrors).toEqual([]);
    expect(hold("hold-10").userErrors).toEqual([
      expect.objectContaining({ field: ["id"], code: "FULFILLMENT_ORDER_HOLD_LIMIT_REACHED" }),
    ]);
  });

  it("refuses a fulfillment order that was already fulfilled", () => {
    store.fulfillOrder(order.id);
    expect(hold().userErrors).toEqual([
      {
        field: ["id"],
        message: `Fulfillment order ${foId} can't be placed on hold: its status is closed.`,
        code: null,
      },
    ]);
  });

  it("refuses a fulfillment order that does not exist", () => {
    const body = runGraphql(api, HOLD, {
      id: gid("FulfillmentOrder", 1),
      hold: { reason: "INCORRECT_ADDRESS" },
    });
    expect(body.data!.fulfillmentOrderHold.userErrors).toEqual([
      {
        field: ["id"],
        message: "Fulfillment order does not exist.",
        code: "FULFILLMENT_ORDER_NOT_FOUND",
      },
    ]);
  });

  it("refuses a reason Shopify does not have, before running", () => {
    const body = runGraphql(api, HOLD, { id: foId, hold: { reason: "WRONG_ADDRESS" } });
    expect(body.data ?? null).toBeNull();
    expect(JSON.stringify(body.errors)).toContain("WRONG_ADDRESS");
    expect(order.fulfillmentOrders[0]!.status).toBe("OPEN");
  });

  it("splits off the items not held into an open fulfillment order of their own", () => {
    const [perfume] = order.fulfillmentOrders[0]!.lineItems;
    const held = hold("address-check", {
      fulfillmentOrderLineItems: [
        { id: gid("FulfillmentOrderLineItem", perfume!.id), quantity: 1 },
      ],
    });
    expect(held.fulfillmentOrder).toEqual({ id: foId, status: "ON_HOLD" });
    expect(held.remainingFulfillmentOrder).toEqual({ id: expect.any(String), status: "OPEN" });
    const [kept, rest] = order.fulfillmentOrders;
    expect(kept!.lineItems.map((l) => l.remainingQuantity)).toEqual([1]);
    expect(rest!.lineItems.map((l) => l.remainingQuantity)).toEqual([1, 1]);
    expect(state().order.displayFulfillmentStatus).toBe("UNFULFILLED");
  });

  it("needs a fulfillment order write scope", () => {
    const body = api.execute(
      { query: HOLD, variables: { id: foId, hold: { reason: "INCORRECT_ADDRESS" } } },
      ["read_orders", "read_merchant_managed_fulfillment_orders"],
    ).body as { errors: { extensions: { code: string } }[] };
    expect(body.errors[0]!.extensions.code).toBe("ACCESS_DENIED");
    expect(order.fulfillmentOrders[0]!.status).toBe("OPEN");
  });

  it("is allowed with the app's scopes", () => {
    const body = api.execute(
      { query: HOLD, variables: { id: foId, hold: { reason: "INCORRECT_ADDRESS" } } },
      TEST_SCOPES.split(","),
    ).body as { errors?: unknown };
    expect(body.errors).toBeUndefined();
  });

  it("costs what a mutation costs", () => {
    hold();
    const call = store.graphqlLog.at(-1)!;
    expect(call).toMatchObject({ operationName: "HoldForAddress", requestedQueryCost: 10 });
    expect(call.actualQueryCost).toBe(10);
  });
});

describe("fulfillmentOrderReleaseHold", () => {
  it("releases only the holds named, and the fulfillment order stays held while one remains", () => {
    const first = hold("address-check").fulfillmentHold;
    const second = hold("payment-check").fulfillmentHold;
    expect(release([first.id])).toEqual({
      fulfillmentOrder: {
        id: foId,
        status: "ON_HOLD",
        fulfillmentHolds: [{ id: second.id, handle: "payment-check" }],
      },
      userErrors: [],
    });
  });

  it("releases every hold, the merchant's too, when no hold ids are given", () => {
    hold("address-check");
    store.holdFulfillmentOrder(foId, { reason: "HIGH_RISK_OF_FRAUD" });
    expect(release()).toEqual({
      fulfillmentOrder: { id: foId, status: "OPEN", fulfillmentHolds: [] },
      userErrors: [],
    });
  });

  it("ignores the ids of holds on other fulfillment orders", () => {
    const own = hold("address-check").fulfillmentHold;
    const other = store.addOrder();
    const elsewhere = store.holdFulfillmentOrder(other.fulfillmentOrders[0]!.id);
    release([gid("FulfillmentHold", elsewhere.id)]);
    expect(store.fulfillmentHolds(order.id).map((h) => gid("FulfillmentHold", h.id))).toEqual([
      own.id,
    ]);
    expect(store.fulfillmentHolds(other.id)).toHaveLength(1);
  });

  it("refuses a fulfillment order that is not on hold", () => {
    expect(release()).toEqual({
      fulfillmentOrder: null,
      userErrors: [{ field: ["id"], message: "The fulfillment order is not on hold.", code: null }],
    });
  });

  it("keeps the released hold on the record, with the time it was released", () => {
    const { fulfillmentHold } = hold();
    release([fulfillmentHold.id]);
    expect(order.fulfillmentOrders[0]!.holds).toEqual([
      expect.objectContaining({
        handle: "address-check",
        heldBy: "app",
        releasedAt: new Date("2026-12-01T09:00:00Z"),
      }),
    ]);
  });
});

describe("holds and the rest of the order", () => {
  it("are released when the order is cancelled, its fulfillment orders closed", () => {
    hold();
    store.cancelOrder(order.id);
    expect(order.fulfillmentOrders[0]!.status).toBe("CLOSED");
    expect(store.fulfillmentHolds(order.id)).toEqual([]);
  });

  it("leave a held order out of fulfillment_status:unshipped, and fulfillment_status:on_hold finds it", () => {
    const other = store.addOrder();
    hold();
    const names = (query: string) =>
      runGraphql(
        api,
        `query Find($q: String) { orders(first: 10, query: $q) { nodes { name } } }`,
        {
          q: query,
        },
      ).data!.orders.nodes.map((o: { name: string }) => o.name);
    expect(names("fulfillment_status:unshipped")).toEqual([other.name]);
    expect(names("fulfillment_status:on_hold")).toEqual([order.name]);
  });

  it("make a fulfillment order on hold not fulfillable, while the order has another one open", () => {
    const split = store.addOrder({
      lineItems: [{}, { locationId: store.addLocation({ name: "Salmiya Shop" }).id }],
    });
    store.holdFulfillmentOrder(split.fulfillmentOrders[0]!.id);
    expect(store.displayFulfillmentStatus(split)).toBe("UNFULFILLED");
    const fulfillable = (o: StandInOrder) =>
      runGraphql(api, `query F($id: ID!) { order(id: $id) { fulfillable } }`, {
        id: gid("Order", o.id),
      }).data!.order.fulfillable;
    expect(fulfillable(split)).toBe(true);
    store.holdFulfillmentOrder(split.fulfillmentOrders[1]!.id);
    expect(fulfillable(split)).toBe(false);
    expect(store.displayFulfillmentStatus(split)).toBe("ON_HOLD");
  });

  it("let the merchant fulfil the open fulfillment order of an order whose other one is held", () => {
    const split = store.addOrder({
      lineItems: [{}, { locationId: store.addLocation({ name: "Salmiya Shop" }).id }],
    });
    const [held, open] = split.fulfillmentOrders;
    store.holdFulfillmentOrder(held!.id);
    const fulfillment = store.fulfillOrder(split.id);
    expect(fulfillment.drawnFrom.map((d) => d.fulfillmentOrderId)).toEqual([open!.id]);
    expect(held!.status).toBe("ON_HOLD");
  });

  it("are found by their global id through node", () => {
    const { fulfillmentHold } = hold();
    const body = runGraphql(
      api,
      `query N($id: ID!) { node(id: $id) { ... on FulfillmentHold { id reason } } }`,
      { id: fulfillmentHold.id },
    );
    expect(body.data!.node).toEqual({ id: fulfillmentHold.id, reason: "INCORRECT_ADDRESS" });
  });
});
