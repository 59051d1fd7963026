import { getNullableType, isNonNullType, type GraphQLEnumType } from "graphql";
import { beforeEach, describe, expect, it } from "vitest";
import {
  adminSchema,
  AdminGraphqlApi,
  FULFILLMENT_EVENT_STATUSES,
  gid,
  ShopifyStandInStore,
  type StandInOrder,
} from "../../sandbox/shopify";
import { TEST_SCOPES } from "../support/test-env";
import type { GraphqlBody } from "./support";

// Documents written as the app writes them: named operations, variables, gids.
const DELIVERY_ORDER = `#graphql
  query DeliveryOrder($id: ID!) {
    order(id: $id) {
      id
      name
      createdAt
      email
      phone
      note
      cancelledAt
      displayFinancialStatus
      displayFulfillmentStatus
      currencyCode
      totalPriceSet { shopMoney { amount currencyCode } }
      currentTotalPriceSet { shopMoney { amount currencyCode } }
      totalOutstandingSet { shopMoney { amount currencyCode } }
      shippingAddress {
        firstName lastName name company address1 address2 city province provinceCode zip
        country countryCodeV2 phone latitude longitude
      }
      lineItems(first: 50) {
        nodes {
          id title name quantity sku
          variant { id inventoryItem { measurement { weight { unit value } } } }
        }
      }
      fulfillmentOrders(first: 5) {
        nodes {
          id
          status
          assignedLocation { location { id name } }
          lineItems(first: 50) { nodes { id remainingQuantity totalQuantity lineItem { id } } }
        }
      }
      fulfillments(first: 10) {
        id status name createdAt
        trackingInfo { company number url }
        location { id }
      }
    }
  }`;

const FULFILL = `#graphql
  mutation FulfillOrder($fulfillment: FulfillmentInput!) {
    fulfillmentCreate(fulfillment: $fulfillment) {
      fulfillment { id name status displayStatus trackingInfo { company number url } }
      userErrors { field message }
    }
  }`;

const UPDATE_TRACKING = `#graphql
  mutation UpdateTracking($fulfillmentId: ID!, $tracking: FulfillmentTrackingInput!) {
    fulfillmentTrackingInfoUpdate(fulfillmentId: $fulfillmentId, trackingInfoInput: $tracking, notifyCustomer: false) {
      fulfillment { id trackingInfo { company number url } }
      userErrors { field message }
    }
  }`;

const SHIPMENT_EVENT = `#graphql
  mutation ShipmentEvent($event: FulfillmentEventInput!) {
    fulfillmentEventCreate(fulfillmentEvent: $event) {
      fulfillmentEvent { id status happenedAt message }
      userErrors { field message }
    }
  }`;

const FULFILLMENT_STATUS = `#graphql
  query FulfillmentStatus($id: ID!) {
    fulfillment(id: $id) {
      id name status displayStatus createdAt deliveredAt
      trackingInfo { company number url }
      order { id name }
      location { id }
      events(first: 20) { nodes { id status happenedAt message } }
    }
  }`;

const MARK_PAID = `#graphql
  mutation CollectCash($id: ID!) {
    orderMarkAsPaid(input: { id: $id }) {
      order { id displayFinancialStatus totalOutstandingSet { shopMoney { amount } } }
      userErrors { field message }
    }
  }`;

let store: ShopifyStandInStore;
let api: AdminGraphqlApi;
let order: StandInOrder;

function messages(body: GraphqlBody): string {
  return Array.isArray(body.errors)
    ? body.errors.map((e) => e.message).join("\n")
    : String(body.errors);
}

function run(
  query: string,
  variables: Record<string, unknown> = {},
  scopes: string[] | null = null,
) {
  return api.execute({ query, variables }, scopes).body as GraphqlBody;
}

function fulfillmentOrderIdOf(o: StandInOrder, index = 0): string {
  const fo = o.fulfillmentOrders[index];
  if (!fo) throw new Error(`${o.name} has no fulfillment order ${index}`);
  return gid("FulfillmentOrder", fo.id);
}

beforeEach(() => {
  store = new ShopifyStandInStore({ clock: () => Date.parse("2026-11-01T09:00:00Z") });
  store.addLocation({ name: "Shuwaikh Warehouse" });
  order = store.addOrder({
    payment: "cod",
    lineItems: [
      { quantity: 2 },
      {
        title: "Dates Crate",
        sku: "DATES-5KG",
        price: "9",
        weight: { value: 5, unit: "KILOGRAMS" },
      },
    ],
  });
  api = new AdminGraphqlApi(store);
});

describe("the stand-in's schema", () => {
  it("keeps Shopify's names, arguments and nullability for the fields the app uses", () => {
    const schema = adminSchema();
    const mutation = schema.getMutationType()!.getFields();
    const args = (field: string) =>
      Object.fromEntries(mutation[field]!.args.map((a) => [a.name, String(a.type)]));
    expect(args("fulfillmentCreate")).toEqual({
      fulfillment: "FulfillmentInput!",
      message: "String",
    });
    expect(args("fulfillmentTrackingInfoUpdate")).toEqual({
      fulfillmentId: "ID!",
      trackingInfoInput: "FulfillmentTrackingInput!",
      notifyCustomer: "Boolean",
    });
    expect(args("fulfillmentEventCreate")).toEqual({ fulfillmentEvent: "FulfillmentEventInput!" });
    expect(args("fulfillmentCancel")).toEqual({ id: "ID!" });
    expect(args("orderMarkAsPaid")).toEqual({ input: "OrderMarkAsPaidInput!" });

    const orderFields = (
      schema.getType("Order") as unknown as { getFields(): Record<string, { type: unknown }> }
    ).getFields();
    expect(isNonNullType(orderFields.displayFulfillmentStatus!.type)).toBe(true);
    expect(isNonNullType(orderFields.displayFinancialStatus!.type)).toBe(false);
    expect(String(orderFields.fulfillments!.type)).toBe("[Fulfillment!]!");
    expect(String(orderFields.shippingAddress!.type)).toBe("MailingAddress");

    const statuses = schema.getType("FulfillmentEventStatus") as GraphQLEnumType;
    expect(statuses.getValues().map((v) => v.name)).toEqual([...FULFILLMENT_EVENT_STATUSES]);
    const input = schema.getType("FulfillmentInput") as unknown as {
      getFields(): Record<string, { type: unknown }>;
    };
    expect(Object.keys(input.getFields()).sort()).toEqual([
      "lineItemsByFulfillmentOrder",
      "notifyCustomer",
      "originAddress",
      "trackingInfo",
    ]);
    expect(
      String(getNullableType(input.getFields().lineItemsByFulfillmentOrder!.type as never)),
    ).toBe("[FulfillmentOrderLineItemsInput!]");
  });

  it("refuses a field Shopify does not have, as validation, with no data", () => {
    const body = run(`query Broken { shop { name colour } }`);
    expect(body.data).toBeUndefined();
    expect(messages(body)).toContain('Cannot query field "colour" on type "Shop"');
    expect(body.extensions?.cost).toBeDefined();
  });
});

describe("the app's order query", () => {
  it("returns the order, its Kuwaiti address, weights and open fulfillment order", () => {
    const body = run(DELIVERY_ORDER, { id: gid("Order", order.id) });
    expect(body.errors).toBeUndefined();
    const o = body.data!.order;
    expect(o).toMatchObject({
      id: `gid://shopify/Order/${order.id}`,
      name: "#1001",
      createdAt: "2026-11-01T09:00:00Z",
      displayFinancialStatus: "PENDING",
      displayFulfillmentStatus: "UNFULFILLED",
      currencyCode: "KWD",
      // 2 × 12.500 + 9.000 + 1.000 shipping, written as GraphQL Decimals are.
      totalPriceSet: { shopMoney: { amount: "35.0", currencyCode: "KWD" } },
      totalOutstandingSet: { shopMoney: { amount: "35.0", currencyCode: "KWD" } },
      shippingAddress: {
        name: "Fatima Al-Mutairi",
        city: "Salmiya",
        province: "Hawalli",
        provinceCode: "KW-HA",
        countryCodeV2: "KW",
        zip: null,
        latitude: null,
      },
    });
    expect(o.lineItems.nodes).toEqual([
      expect.objectContaining({
        name: "Oud Perfume - 50 ml",
        quantity: 2,
        sku: "OUD-50",
        variant: expect.objectContaining({
          inventoryItem: { measurement: { weight: { unit: "GRAMS", value: 350 } } },
        }),
      }),
      expect.objectContaining({
        name: "Dates Crate",
        sku: "DATES-5KG",
        variant: expect.objectContaining({
          inventoryItem: { measurement: { weight: { unit: "KILOGRAMS", value: 5 } } },
        }),
      }),
    ]);
    const [fo] = o.fulfillmentOrders.nodes;
    expect(fo).toMatchObject({
      status: "OPEN",
      assignedLocation: { location: { name: "Shuwaikh Warehouse" } },
    });
    expect(
      fo.lineItems.nodes.map((l: { remainingQuantity: number }) => l.remainingQuantity),
    ).toEqual([2, 1]);
    expect(fo.lineItems.nodes[0].lineItem.id).toBe(o.lineItems.nodes[0].id);
    expect(o.fulfillments).toEqual([]);
  });

  it("answers null for an order that does not exist and an error for a malformed id", () => {
    expect(run(DELIVERY_ORDER, { id: gid("Order", 1) }).data).toEqual({ order: null });
    const body = run(DELIVERY_ORDER, { id: "1001" });
    expect(messages(body)).toContain("Invalid global id '1001'");
  });

  it("lists locations with their addresses", () => {
    store.addLocation({ name: "Old Store", isActive: false });
    const body = run(`#graphql
      query PickupLocations {
        locations(first: 50) {
          nodes {
            id name isActive fulfillsOnlineOrders
            address { address1 address2 city zip provinceCode countryCode phone formatted }
          }
        }
      }`);
    expect(body.data!.locations.nodes).toEqual([
      {
        id: gid("Location", store.locations()[0]!.id),
        name: "Shuwaikh Warehouse",
        isActive: true,
        fulfillsOnlineOrders: true,
        address: expect.objectContaining({
          city: "Shuwaikh Industrial",
          provinceCode: "KW-KU",
          countryCode: "KW",
          formatted: ["Block 2, Street 24, Building 15", "Shuwaikh Industrial 70050", "Kuwait"],
        }),
      },
    ]);
  });

  it("pages through orders with cursors, filters with Shopify's search syntax and sorts", () => {
    store.addOrder();
    store.addOrder({ payment: "cod" });
    const page = (after: string | null) =>
      run(
        `query Orders($after: String) {
          orders(first: 2, after: $after, sortKey: ORDER_NUMBER) {
            edges { cursor node { name } }
            pageInfo { hasNextPage hasPreviousPage endCursor }
          }
        }`,
        { after },
      ).data!.orders;
    const first = page(null);
    expect(first.edges.map((e: { node: { name: string } }) => e.node.name)).toEqual([
      "#1001",
      "#1002",
    ]);
    expect(first.pageInfo).toMatchObject({ hasNextPage: true, hasPreviousPage: false });
    const second = page(first.pageInfo.endCursor);
    expect(second.edges.map((e: { node: { name: string } }) => e.node.name)).toEqual(["#1003"]);
    expect(second.pageInfo).toMatchObject({ hasNextPage: false, hasPreviousPage: true });

    const names = (query: string, reverse = false) =>
      run(
        `query Q($q: String, $r: Boolean) { orders(first: 10, query: $q, reverse: $r) { nodes { name } } }`,
        {
          q: query,
          r: reverse,
        },
      ).data!.orders.nodes.map((n: { name: string }) => n.name);
    expect(names("financial_status:pending")).toEqual(["#1001", "#1003"]);
    expect(names("financial_status:pending", true)).toEqual(["#1003", "#1001"]);
    expect(names("name:#1002")).toEqual(["#1002"]);
    expect(names("-financial_status:paid fulfillment_status:unshipped")).toEqual([
      "#1001",
      "#1003",
    ]);
  });

  it("keeps a cursor's place when its order has left the list, as Shopify's cursors do", () => {
    for (let i = 0; i < 4; i += 1) {
      store.addOrder({ createdAt: new Date(Date.parse("2026-11-01T10:00:00Z") + i * 60_000) });
    }
    const page = (after: string | null) =>
      run(
        `query Orders($after: String, $q: String) {
          orders(first: 2, after: $after, query: $q, sortKey: CREATED_AT, reverse: true) {
            nodes { name }
            pageInfo { endCursor }
          }
        }`,
        { after, q: "fulfillment_status:unshipped" },
      );
    const first = page(null).data!.orders;
    expect(first.nodes.map((n: { name: string }) => n.name)).toEqual(["#1005", "#1004"]);
    // The last order of the page is fulfilled before the next page is asked for.
    store.fulfillOrder("#1004");
    const second = page(first.pageInfo.endCursor);
    expect(second.errors).toBeUndefined();
    expect(second.data!.orders.nodes.map((n: { name: string }) => n.name)).toEqual([
      "#1003",
      "#1002",
    ]);
  });

  it("insists on first or last, as Shopify does", () => {
    const body = run(`query { orders(query: "") { nodes { id } } }`);
    expect(body.data).toBeNull();
    expect(messages(body)).toContain("you must provide one of first or last");
  });

  it("finds any record through node(id:)", () => {
    const fulfillment = store.fulfillOrder(order.id);
    const body = run(
      `query N($id: ID!) { node(id: $id) { id ... on Fulfillment { name status order { name } } } }`,
      { id: gid("Fulfillment", fulfillment.id) },
    );
    expect(body.data!.node).toEqual({
      id: gid("Fulfillment", fulfillment.id),
      name: "#1001.1",
      status: "SUCCESS",
      order: { name: "#1001" },
    });
  });
});

describe("fulfillmentCreate", () => {
  it("fulfills every remaining line, closes the fulfillment order and stores the tracking", () => {
    const body = run(FULFILL, {
      fulfillment: {
        lineItemsByFulfillmentOrder: [{ fulfillmentOrderId: fulfillmentOrderIdOf(order) }],
        notifyCustomer: false,
        trackingInfo: {
          company: "Kuwait Courier",
          number: "KW100001",
          url: "https://track.example/KW100001",
        },
      },
    });
    expect(body.data!.fulfillmentCreate).toEqual({
      fulfillment: {
        id: expect.stringMatching(/^gid:\/\/shopify\/Fulfillment\/\d+$/),
        name: "#1001.1",
        status: "SUCCESS",
        displayStatus: "FULFILLED",
        trackingInfo: [
          { company: "Kuwait Courier", number: "KW100001", url: "https://track.example/KW100001" },
        ],
      },
      userErrors: [],
    });
    const after = run(DELIVERY_ORDER, { id: gid("Order", order.id) }).data!.order;
    expect(after.displayFulfillmentStatus).toBe("FULFILLED");
    expect(after.fulfillmentOrders.nodes[0].status).toBe("CLOSED");
    expect(
      after.fulfillmentOrders.nodes[0].lineItems.nodes.map(
        (l: { remainingQuantity: number }) => l.remainingQuantity,
      ),
    ).toEqual([0, 0]);
    expect(after.fulfillments).toHaveLength(1);
    expect(store.fulfillments()[0]).toMatchObject({ createdBy: "app", status: "SUCCESS" });
  });

  it("answers a closed fulfillment order with a user error, not an exception", () => {
    const input = {
      lineItemsByFulfillmentOrder: [{ fulfillmentOrderId: fulfillmentOrderIdOf(order) }],
    };
    run(FULFILL, { fulfillment: input });
    const body = run(FULFILL, { fulfillment: input });
    expect(body.errors).toBeUndefined();
    expect(body.data!.fulfillmentCreate).toEqual({
      fulfillment: null,
      userErrors: [
        {
          field: ["fulfillment"],
          message: `Fulfillment order ${fulfillmentOrderIdOf(order)} has an unfulfillable status= closed.`,
        },
      ],
    });
    expect(store.fulfillments()).toHaveLength(1);
    expect(store.graphqlLog.at(-1)?.userErrors).toHaveLength(1);
  });

  it("fulfills part of a fulfillment order and leaves it in progress", () => {
    const line = order.fulfillmentOrders[0]!.lineItems[0]!;
    const body = run(FULFILL, {
      fulfillment: {
        lineItemsByFulfillmentOrder: [
          {
            fulfillmentOrderId: fulfillmentOrderIdOf(order),
            fulfillmentOrderLineItems: [
              { id: gid("FulfillmentOrderLineItem", line.id), quantity: 1 },
            ],
          },
        ],
      },
    });
    expect(body.data!.fulfillmentCreate.userErrors).toEqual([]);
    expect(order.fulfillmentOrders[0]!.status).toBe("IN_PROGRESS");
    expect(line.remainingQuantity).toBe(1);
    expect(store.displayFulfillmentStatus(order)).toBe("PARTIALLY_FULFILLED");

    const tooMany = run(FULFILL, {
      fulfillment: {
        lineItemsByFulfillmentOrder: [
          {
            fulfillmentOrderId: fulfillmentOrderIdOf(order),
            fulfillmentOrderLineItems: [
              { id: gid("FulfillmentOrderLineItem", line.id), quantity: 2 },
            ],
          },
        ],
      },
    });
    expect(tooMany.data!.fulfillmentCreate.userErrors).toEqual([
      {
        field: ["fulfillment"],
        message: "Invalid fulfillment order line item quantity requested.",
      },
    ]);
  });

  it("refuses a fulfillment order of a cancelled order", () => {
    store.cancelOrder(order.id);
    const body = run(FULFILL, {
      fulfillment: {
        lineItemsByFulfillmentOrder: [{ fulfillmentOrderId: fulfillmentOrderIdOf(order) }],
      },
    });
    expect(body.data!.fulfillmentCreate.userErrors[0].message).toContain(
      "unfulfillable status= closed",
    );
  });
});

describe("tracking, events, cancellation and payment", () => {
  it("replaces the tracking, records shipment events and shows the latest as the display status", () => {
    const fulfillment = store.fulfillOrder(order.id);
    const id = gid("Fulfillment", fulfillment.id);
    const tracking = run(UPDATE_TRACKING, {
      fulfillmentId: id,
      tracking: {
        company: "Kuwait Courier",
        number: "KW100002",
        url: "https://track.example/KW100002",
      },
    });
    expect(tracking.data!.fulfillmentTrackingInfoUpdate).toEqual({
      fulfillment: {
        id,
        trackingInfo: [
          { company: "Kuwait Courier", number: "KW100002", url: "https://track.example/KW100002" },
        ],
      },
      userErrors: [],
    });

    for (const [status, happenedAt] of [
      ["IN_TRANSIT", "2026-11-01T10:00:00Z"],
      ["OUT_FOR_DELIVERY", "2026-11-01T12:00:00Z"],
      ["DELIVERED", "2026-11-01T16:30:00+03:00"],
    ] as const) {
      const body = run(SHIPMENT_EVENT, {
        event: { fulfillmentId: id, status, happenedAt, message: `courier: ${status}` },
      });
      expect(body.data!.fulfillmentEventCreate.userErrors).toEqual([]);
    }
    const read = run(FULFILLMENT_STATUS, { id }).data!.fulfillment;
    expect(read).toMatchObject({
      status: "SUCCESS",
      displayStatus: "DELIVERED",
      deliveredAt: "2026-11-01T13:30:00Z",
      order: { name: "#1001" },
    });
    expect(read.events.nodes.map((e: { status: string }) => e.status)).toEqual([
      "IN_TRANSIT",
      "OUT_FOR_DELIVERY",
      "DELIVERED",
    ]);
  });

  it("refuses an event status Shopify does not have, and a malformed date", () => {
    const fulfillment = store.fulfillOrder(order.id);
    const id = gid("Fulfillment", fulfillment.id);
    const unknown = run(SHIPMENT_EVENT, { event: { fulfillmentId: id, status: "PICKED_UP" } });
    expect(messages(unknown)).toContain(
      'Value "PICKED_UP" does not exist in "FulfillmentEventStatus" enum',
    );
    const badDate = run(SHIPMENT_EVENT, {
      event: { fulfillmentId: id, status: "DELIVERED", happenedAt: "yesterday" },
    });
    expect(messages(badDate)).toContain("Invalid DateTime 'yesterday'");
    expect(fulfillment.events).toEqual([]);
  });

  it("cancels a fulfillment and opens a new fulfillment order for its items", () => {
    const fulfillment = store.fulfillOrder(order.id);
    const body = run(
      `mutation Cancel($id: ID!) { fulfillmentCancel(id: $id) { fulfillment { id status displayStatus } userErrors { field message } } }`,
      { id: gid("Fulfillment", fulfillment.id) },
    );
    expect(body.data!.fulfillmentCancel).toEqual({
      fulfillment: {
        id: gid("Fulfillment", fulfillment.id),
        status: "CANCELLED",
        displayStatus: "CANCELED",
      },
      userErrors: [],
    });
    expect(order.fulfillmentOrders.map((fo) => fo.status)).toEqual(["CLOSED", "OPEN"]);
    expect(order.fulfillmentOrders[1]!.lineItems.map((l) => l.remainingQuantity)).toEqual([2, 1]);
    expect(store.displayFulfillmentStatus(order)).toBe("UNFULFILLED");
    // The new fulfillment order can be fulfilled again.
    expect(store.fulfillOrder(order.id).name).toBe("#1001.2");
  });

  it("marks a cash-on-delivery order paid once, and refuses the second time", () => {
    const first = run(MARK_PAID, { id: gid("Order", order.id) });
    expect(first.data!.orderMarkAsPaid).toEqual({
      order: {
        id: gid("Order", order.id),
        displayFinancialStatus: "PAID",
        totalOutstandingSet: { shopMoney: { amount: "0.0" } },
      },
      userErrors: [],
    });
    const second = run(MARK_PAID, { id: gid("Order", order.id) });
    expect(second.data!.orderMarkAsPaid.order).toBeNull();
    expect(second.data!.orderMarkAsPaid.userErrors[0].message).toContain("no outstanding balance");
  });

  it("cancels an unfulfilled order (a COD order becomes voided) and refuses a fulfilled one", () => {
    const body = run(
      `mutation CancelOrder($id: ID!) {
        orderCancel(orderId: $id, reason: CUSTOMER, restock: true, refundMethod: { originalPaymentMethodsRefund: true }) {
          job { id done }
          orderCancelUserErrors { field message code }
        }
      }`,
      { id: gid("Order", order.id) },
    );
    expect(body.data!.orderCancel).toMatchObject({
      job: { done: true },
      orderCancelUserErrors: [],
    });
    expect(order).toMatchObject({
      cancelReason: "CUSTOMER",
      financialStatus: "VOIDED",
      totalOutstanding: "0.000",
    });

    const fulfilled = store.addOrder();
    store.fulfillOrder(fulfilled.id);
    const refused = run(
      `mutation CancelOrder($id: ID!) { orderCancel(orderId: $id, reason: OTHER, restock: false) { orderCancelUserErrors { message code } } }`,
      { id: gid("Order", fulfilled.id) },
    );
    expect(refused.data!.orderCancel.orderCancelUserErrors[0]).toMatchObject({ code: "INVALID" });
  });
});

describe("access scopes", () => {
  it("denies a mutation the token's scopes do not cover, as ACCESS_DENIED", () => {
    const fulfillment = store.fulfillOrder(order.id);
    // The app's scopes without the one shipment events need.
    const scopes = TEST_SCOPES.split(",").filter((scope) => scope !== "write_fulfillments");
    const body = run(
      SHIPMENT_EVENT,
      { event: { fulfillmentId: gid("Fulfillment", fulfillment.id), status: "IN_TRANSIT" } },
      scopes,
    );
    expect(body.data).toEqual({ fulfillmentEventCreate: null });
    expect(body.errors).toEqual([
      expect.objectContaining({
        message:
          "Access denied for fulfillmentEventCreate field. Required access: `write_fulfillments` access scope.",
        extensions: expect.objectContaining({ code: "ACCESS_DENIED" }),
      }),
    ]);
    // The app's own scopes do cover reading orders and fulfilling them.
    expect(run(DELIVERY_ORDER, { id: gid("Order", order.id) }, scopes).errors).toBeUndefined();
  });
});

describe("query cost", () => {
  it("reports the requested cost before running and the actual cost of what came back", () => {
    const body = run(DELIVERY_ORDER, { id: gid("Order", order.id) });
    const cost = body.extensions!.cost;
    expect(cost.requestedQueryCost).toBeGreaterThan(cost.actualQueryCost!);
    expect(cost.actualQueryCost).toBeGreaterThan(10);
    expect(cost.throttleStatus).toEqual({
      maximumAvailable: 2000,
      currentlyAvailable: 2000 - cost.actualQueryCost!,
      restoreRate: 100,
    });
    expect(run(MARK_PAID, { id: gid("Order", order.id) }).extensions!.cost).toMatchObject({
      requestedQueryCost: 10,
      actualQueryCost: 10,
    });
  });

  it("refuses a single query that could cost more than 1000 points", () => {
    const body = run(
      `query Huge { orders(first: 250) { nodes { lineItems(first: 250) { nodes { id } } } } }`,
    );
    expect(body.data).toBeUndefined();
    expect(body.errors).toEqual([
      expect.objectContaining({
        extensions: expect.objectContaining({ code: "MAX_COST_EXCEEDED" }),
      }),
    ]);
  });
});
