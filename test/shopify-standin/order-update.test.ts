import { beforeEach, describe, expect, it } from "vitest";
import {
  AdminGraphqlApi,
  gid,
  ShopifyStandInStore,
  type StandInOrder,
} from "../../sandbox/shopify";
import { METAFIELDS, UPDATE } from "./address-check-documents";
import { runGraphql } from "./support";

const NAMESPACE = "kuwait_courier";

let store: ShopifyStandInStore;
let api: AdminGraphqlApi;
let order: StandInOrder;
let orderId: string;

beforeEach(() => {
  store = new ShopifyStandInStore({ clock: () => Date.parse("2026-12-01T09:00:00Z") });
  store.addLocation();
  order = store.addOrder({
    payment: "cod",
    shippingAddress: {
      firstName: "Hessa",
      lastName: "Al-Ajmi",
      address1: "Salmiya, near the co-op",
      city: "Salmiya",
      provinceCode: "KW-HA",
      phone: "+96550001234",
      latitude: 29.33,
      longitude: 48.08,
    },
  });
  orderId = gid("Order", order.id);
  api = new AdminGraphqlApi(store);
});

function update(input: Record<string, unknown>) {
  return runGraphql(api, UPDATE, { input: { id: orderId, ...input } });
}

function answer(value: string, type = "json") {
  return { namespace: NAMESPACE, key: "address_answer", type, value };
}

describe("orderUpdate's shipping address", () => {
  it("replaces the fields given and keeps the others", () => {
    const body = update({
      shippingAddress: { address1: "Block 10, Street 4, House 7", address2: "Apartment 3" },
    });
    expect(body.data!.orderUpdate).toEqual({
      order: {
        id: orderId,
        shippingAddress: {
          firstName: "Hessa",
          lastName: "Al-Ajmi",
          name: "Hessa Al-Ajmi",
          address1: "Block 10, Street 4, House 7",
          address2: "Apartment 3",
          city: "Salmiya",
          province: "Hawalli",
          provinceCode: "KW-HA",
          zip: null,
          country: "Kuwait",
          countryCodeV2: "KW",
          phone: "+96550001234",
          latitude: null,
          longitude: null,
        },
      },
      userErrors: [],
    });
  });

  it("is what the store reads back as the order's address", () => {
    update({ shippingAddress: { city: "Jabriya", address1: "Block 1, Street 1, House 1" } });
    expect(store.order(order.id).shippingAddress).toMatchObject({
      city: "Jabriya",
      address1: "Block 1, Street 1, House 1",
    });
  });

  it("keeps the coordinates when only the name or phone changes", () => {
    update({ shippingAddress: { phone: "+96560001234" } });
    expect(order.shippingAddress).toMatchObject({ latitude: 29.33, longitude: 48.08 });
  });

  it("names the province from a Kuwaiti province code", () => {
    update({ shippingAddress: { city: "Jahra", provinceCode: "KW-JA" } });
    expect(order.shippingAddress).toMatchObject({ province: "Al Jahra", provinceCode: "KW-JA" });
  });

  it("becomes the destination of the fulfillment orders still to ship", () => {
    update({ shippingAddress: { city: "Jahra", provinceCode: "KW-JA" } });
    const body = runGraphql(
      api,
      `query D($id: ID!) { order(id: $id) { fulfillmentOrders(first: 5) { nodes { destination { city province } } } } }`,
      { id: orderId },
    );
    expect(body.data!.order.fulfillmentOrders.nodes).toEqual([
      { destination: { city: "Jahra", province: "Al Jahra" } },
    ]);
  });

  it("leaves a closed fulfillment order's destination where its items went", () => {
    store.fulfillOrder(order.id);
    update({ shippingAddress: { city: "Jahra", provinceCode: "KW-JA" } });
    expect(order.fulfillmentOrders[0]!.destination).toMatchObject({ city: "Salmiya" });
  });

  it("refuses a province code that is not one of Kuwait's, and changes nothing", () => {
    const body = update({ shippingAddress: { provinceCode: "KW-XX" }, note: "changed" });
    expect(body.data!.orderUpdate).toEqual({
      order: null,
      userErrors: [
        {
          field: ["shippingAddress", "provinceCode"],
          message: "Province code KW-XX is not a province of Kuwait.",
        },
      ],
    });
    expect(order.shippingAddress?.provinceCode).toBe("KW-HA");
    expect(order.note).toBeNull();
  });

  it("refuses a country code Shopify does not have, before running", () => {
    const body = update({ shippingAddress: { countryCode: "XY" } });
    expect(body.data ?? null).toBeNull();
    expect(JSON.stringify(body.errors)).toContain("XY");
  });

  it("clears the province when the country changes", () => {
    update({ shippingAddress: { countryCode: "SA", city: "Riyadh" } });
    expect(order.shippingAddress).toMatchObject({
      country: "Saudi Arabia",
      countryCode: "SA",
      province: null,
      provinceCode: null,
    });
  });

  it("refuses an order that does not exist", () => {
    const body = runGraphql(api, UPDATE, {
      input: { id: gid("Order", 1), shippingAddress: { city: "Jahra" } },
    });
    expect(body.data!.orderUpdate).toEqual({
      order: null,
      userErrors: [{ field: ["id"], message: "Order does not exist." }],
    });
  });

  it("needs write_orders", () => {
    const body = api.execute({ query: UPDATE, variables: { input: { id: orderId, note: "x" } } }, [
      "read_orders",
    ]).body as { errors: { extensions: { code: string } }[] };
    expect(body.errors[0]!.extensions.code).toBe("ACCESS_DENIED");
  });
});

describe("orderUpdate's metafields", () => {
  it("are stored on the order and read back through metafield and metafields", () => {
    const value = JSON.stringify({ confirmed: true, at: "2026-12-01T09:00:00Z" });
    expect(update({ metafields: [answer(value)] }).data!.orderUpdate.userErrors).toEqual([]);
    const body = runGraphql(api, METAFIELDS, { id: orderId, namespace: NAMESPACE });
    expect(body.data!.order).toEqual({
      answer: {
        id: expect.stringMatching(/^gid:\/\/shopify\/Metafield\/\d+$/),
        key: "address_answer",
        namespace: NAMESPACE,
        type: "json",
        value,
      },
      metafields: { nodes: [{ key: "address_answer", type: "json", value }] },
    });
    expect(store.metafield(order.id, NAMESPACE, "address_answer")?.value).toBe(value);
  });

  it("update the metafield with the same namespace and key instead of adding another", () => {
    update({ metafields: [answer('{"confirmed":false}')] });
    update({ metafields: [answer('{"confirmed":true}')] });
    expect(order.metafields.map((m) => m.value)).toEqual(['{"confirmed":true}']);
  });

  it("are listed by namespace only when one is asked for", () => {
    update({
      metafields: [
        answer("{}"),
        { namespace: "other_app", key: "x1", type: "boolean", value: "true" },
      ],
    });
    const body = runGraphql(api, METAFIELDS, { id: orderId, namespace: "other_app" });
    expect(body.data!.order.metafields.nodes).toEqual([
      { key: "x1", type: "boolean", value: "true" },
    ]);
  });

  it("without a namespace go to the app's reserved namespace, read back through $app", () => {
    update({ metafields: [{ key: "answer", type: "single_line_text_field", value: "yes" }] });
    const body = runGraphql(
      api,
      `query A($id: ID!) { order(id: $id) { metafield(key: "answer") { namespace value } } }`,
      {
        id: orderId,
      },
    );
    expect(body.data!.order.metafield).toEqual({ namespace: `app--${store.appId}`, value: "yes" });
    expect(store.metafield(order.id, "$app", "answer")?.value).toBe("yes");
  });

  it("refuse a value that does not fit its type, and change nothing", () => {
    const body = update({
      shippingAddress: { city: "Jahra" },
      metafields: [answer("{not json")],
    });
    expect(body.data!.orderUpdate.userErrors).toEqual([
      { field: ["metafields", "0", "value"], message: "Value is invalid JSON." },
    ]);
    expect(order.metafields).toEqual([]);
    expect(order.shippingAddress?.city).toBe("Salmiya");
  });

  it("refuse a new metafield without a type", () => {
    const body = update({
      metafields: [{ namespace: NAMESPACE, key: "address_answer", value: "x" }],
    });
    expect(body.data!.orderUpdate.userErrors).toEqual([
      { field: ["metafields", "0", "type"], message: "Type can't be blank." },
    ]);
  });

  it("refuse a key that is too short", () => {
    const body = update({
      metafields: [{ namespace: NAMESPACE, key: "a", type: "boolean", value: "true" }],
    });
    expect(body.data!.orderUpdate.userErrors).toEqual([
      { field: ["metafields", "0", "key"], message: "Key must be between 2 and 64 characters." },
    ]);
  });
});
