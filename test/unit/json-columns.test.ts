import { describe, expect, it } from "vitest";
import { z } from "zod";
import { buildCreateOrderBody } from "../../app/courier/requests";
import { addressMatchColumn, type StoredMatch } from "../../app/domain/address-match";
import { eventDataColumn } from "../../app/domain/event-data";
import { jsonColumn, Unreadable } from "../../app/domain/json-column";
import { shopifyPendingColumn } from "../../app/domain/owed-shopify-event";
import { redactDeliveryRequest } from "../../app/domain/redaction";
import { bodyToSend, requestColumn } from "../../app/domain/stored-request";

/** A value that must have read back. */
function readable<T>(value: T | Unreadable): T {
  if (value instanceof Unreadable) throw new Error(`${value.column}: ${value.problem}`);
  return value;
}

/** A value that must not have read back. */
function unreadable(value: unknown): Unreadable {
  if (!(value instanceof Unreadable)) throw new Error(`read back: ${JSON.stringify(value)}`);
  return value;
}

describe("a JSON column", () => {
  const column = jsonColumn("Test.column", z.object({ n: z.int() }));

  it("reads back what it wrote", () => {
    expect(column.decode(column.encode({ n: 3 }))).toEqual({ n: 3 });
  });

  it("reads a null column as null", () => {
    expect(column.decodeNullable(null)).toBeNull();
  });

  it("says a text that is not JSON is unreadable, keeping the text", () => {
    const value = unreadable(column.decode("{n: 3"));
    expect(value).toMatchObject({ column: "Test.column", problem: "not JSON", stored: "{n: 3" });
  });

  it("says JSON of another shape is unreadable, naming the field", () => {
    const value = unreadable(column.decode('{"n":"three"}'));
    expect(value.problem).toMatch(/^n: /);
    expect(value.stored).toEqual({ n: "three" });
  });
});

/** A request as the worker builds it (app/domain/request.ts). */
const body = buildCreateOrderBody({
  pickupAddress: {
    governanceId: 2,
    areaId: 31,
    block: "10",
    street: "Salem Al Mubarak",
    contactName: "Salmiya store",
    contactPhone: "22223333",
  },
  pickupDate: "2026-11-24T14:30:00",
  paymentMethod: "COD",
  deliveryAddress: {
    governanceId: 2,
    areaId: 31,
    block: "4",
    street: "12",
    contactName: "Noura",
    contactPhone: "+965 9988 7766",
    latitude: 29.3341234,
    longitude: 48.0761234,
    notes: "Apartment 5",
  },
  packageDetails: { weight: 1.2, description: "2 × Abaya", value: "24.5" },
  notes: "SHPFY-shop-FO1 · Shopify order #1001",
});

describe("Delivery.request", () => {
  it("reads back the body it stored, to be sent as it is", () => {
    const stored = requestColumn.decode(requestColumn.encode(body));
    expect(stored).toEqual({ erased: false, body });
    expect(bodyToSend(readable(stored))).toEqual({ ok: true, body });
  });

  it("reads a request erased by customers/redact as erased, never to be sent", () => {
    const erased = JSON.stringify(redactDeliveryRequest(requestColumn.encode(body)));
    const stored = requestColumn.decode(erased);
    expect(stored).toMatchObject({
      erased: true,
      body: {
        paymentMethod: "COD",
        pickupDate: "2026-11-24T14:30:00",
        deliveryAddress: { governanceId: 2, areaId: 31, contactName: "", contactPhone: "" },
      },
    });
    expect(bodyToSend(readable(stored))).toEqual({
      ok: false,
      reason: "The customer's personal data was erased at their request: nothing can be sent.",
    });
  });

  it("reads an erased request whose address was not an object", () => {
    const erased = JSON.stringify({ ...body, deliveryAddress: null });
    expect(requestColumn.decode(erased)).toMatchObject({
      erased: true,
      body: { deliveryAddress: null },
    });
  });

  it("says a body the courier would refuse is unreadable, with the field and why", () => {
    const spoilt = { ...body, deliveryAddress: { ...body.deliveryAddress, contactPhone: "12" } };
    const value = unreadable(requestColumn.decode(JSON.stringify(spoilt)));
    expect(value.problem).toMatch(/^deliveryAddress\.contactPhone: .*8 digits/);
    expect(bodyToSend(value)).toEqual({
      ok: false,
      reason: expect.stringMatching(
        /^The request built for this delivery can no longer be read \(deliveryAddress\.contactPhone: .*\)\. Press Try again to build it again from the order\.$/,
      ),
    });
  });

  it.each([
    ["an empty object", "{}"],
    ["text that is not JSON", "Noura, Salmiya"],
    ["a list", "[]"],
  ])("says %s is unreadable", (_name, text) => {
    unreadable(requestColumn.decode(text));
  });
});

/** The record prepare writes today. */
const match: StoredMatch = {
  input: {
    city: "Salmiya",
    address1: "Block 1 Street 2 House 3",
    address2: null,
    provinceCode: "KW-HA",
    zip: null,
  },
  area: "Salmiya",
  governorate: "Hawalli",
  confidence: 0.93,
  confident: true,
  reasons: ["Area found in the city field."],
  overrideKey: "KW-HA|salmiya",
  parts: {
    block: "1",
    street: "2",
    avenue: null,
    house: "3",
    building: null,
    floor: null,
    apartment: null,
    paci: null,
  },
  courier: { governanceId: 2, areaId: 31 },
};

describe("Delivery.addressMatch", () => {
  it("reads back the record it stored", () => {
    expect(addressMatchColumn.decode(addressMatchColumn.encode(match))).toEqual(match);
  });

  it("reads a record written before the shopper's input was kept", () => {
    // The first worker (commit afc1f2f) wrote no `input`.
    const { input: _input, ...old } = match;
    expect(addressMatchColumn.decode(JSON.stringify(old))).toEqual(old);
  });

  it("reads a place the merchant chose by hand over a record that did not read", () => {
    const fixed = { courier: { governanceId: 2, areaId: 31 }, parts: {}, fixedByMerchant: true };
    expect(addressMatchColumn.decode(JSON.stringify(fixed))).toEqual(fixed);
  });

  it("leaves out fields it no longer knows", () => {
    expect(addressMatchColumn.decode('{"area":"Salmiya","retired":1}')).toEqual({
      area: "Salmiya",
    });
  });

  it("says a record of another shape is unreadable", () => {
    const value = unreadable(addressMatchColumn.decode('{"reasons":"none","courier":{}}'));
    expect(value.problem).toMatch(/^reasons: /);
  });
});

describe("DeliveryEvent.data", () => {
  it("reads back the courier's answer", () => {
    const answer = { courier: { orderId: "C-1", orderNumber: "KW1", status: "new" } };
    expect(eventDataColumn.decode(eventDataColumn.encode(answer))).toEqual(answer);
  });

  it("reads back a courier status, keeping keys it does not name", () => {
    const status = {
      status: "OUT",
      name: "خرج للتوصيل",
      state: "out_for_delivery",
      at: "2026-11-24T10:00:00.000Z",
      shopify: "OUT_FOR_DELIVERY",
      note: "kept",
    };
    expect(eventDataColumn.decode(eventDataColumn.encode(status))).toEqual(status);
  });

  it("says data of another shape is unreadable", () => {
    unreadable(eventDataColumn.decode('{"courier":"C-1"}'));
    unreadable(eventDataColumn.decode("[1]"));
  });
});

describe("Delivery.shopifyPending", () => {
  it("reads back the status still to be written to Shopify", () => {
    const owed = { status: "DELIVERED" as const, happenedAt: null, message: "At the door" };
    expect(shopifyPendingColumn.decode(shopifyPendingColumn.encode(owed))).toEqual(owed);
  });

  it("says a status Shopify does not have is unreadable", () => {
    const value = unreadable(
      shopifyPendingColumn.decode('{"status":"LOST","happenedAt":null,"message":""}'),
    );
    expect(value.problem).toMatch(/^status: /);
  });
});
