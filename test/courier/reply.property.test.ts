import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  createCourierClient,
  isCourierError,
  type CourierClient,
  type CourierEndpoint,
} from "../../app/courier";
import { bulkResultSchema } from "../../app/courier/bulk-result";
import { parseCourierReply, parseRetryAfter } from "../../app/courier/reply";
import {
  areasSchema,
  cancelResultSchema,
  createOrderResultSchema,
  exceptionListSchema,
  governancesSchema,
  orderListSchema,
  orderRecordSchema,
  orderStatusesSchema,
  priceQuoteSchema,
  reportSchema,
  trackingSchema,
  vehicleTypesSchema,
} from "../../app/courier/results";
import type { z } from "zod";

// Whatever comes back from the wire, the parser gives a result or a CourierError: no TypeError,
// SyntaxError or RangeError ever escapes to the caller.

const SCHEMAS: Record<CourierEndpoint, z.ZodType> = {
  createOrder: createOrderResultSchema,
  createBulk: bulkResultSchema(3),
  calculatePrice: priceQuoteSchema,
  history: orderListSchema,
  getOrder: orderRecordSchema,
  track: trackingSchema,
  cancel: cancelResultSchema,
  governances: governancesSchema,
  areas: areasSchema,
  vehicleTypes: vehicleTypesSchema,
  orderStatuses: orderStatusesSchema,
  exceptions: exceptionListSchema,
  corporateOrdersReport: reportSchema,
};
const endpoint = fc.constantFrom(...(Object.keys(SCHEMAS) as CourierEndpoint[]));

const headerValue = fc.stringMatching(/^[\x20-\x7e]{0,40}$/).map((s) => s.trim());
const headers = fc
  .record(
    {
      "retry-after": fc.oneof(
        headerValue,
        fc.nat().map(String),
        fc.date({ noInvalidDate: true }).map((d) => d.toUTCString()),
      ),
      "content-type": fc.constantFrom(
        "application/json",
        "text/plain",
        "text/html",
        "application/octet-stream",
      ),
      location: headerValue,
      "x-request-id": headerValue,
    },
    { requiredKeys: [] },
  )
  .map((h) => new Headers(h));
const status = fc.oneof(
  fc.constantFrom(200, 201, 204, 301, 400, 401, 403, 404, 409, 429, 500, 503),
  fc.integer({ min: 200, max: 599 }),
);

const encode = (value: unknown) => new TextEncoder().encode(JSON.stringify(value));

/** Runs the parser; returns "ok" or the error's class name, and fails on anything else. */
function outcome(bytes: Uint8Array, code: number, h: Headers, ep: CourierEndpoint): string {
  try {
    parseCourierReply(
      { status: code, headers: h, bytes },
      { endpoint: ep, action: "testing", schema: SCHEMAS[ep] },
    );
    return "ok";
  } catch (error) {
    if (!isCourierError(error)) throw error;
    expect(error.message.length).toBeGreaterThan(20);
    expect(["not_sent", "rejected", "unknown"]).toContain(error.outcome);
    return error.name;
  }
}

const envelope = fc.record({
  responseCode: fc.oneof(fc.constant(200), fc.integer(), fc.double(), fc.string()),
  message: fc.oneof(fc.string(), fc.constant(undefined)),
  results: fc.jsonValue(),
});

describe("the reply parser", () => {
  it("turns arbitrary bytes into a result or a typed error", () => {
    fc.assert(
      fc.property(
        fc.uint8Array({ maxLength: 300 }),
        status,
        headers,
        endpoint,
        (bytes, code, h, ep) => {
          outcome(bytes, code, h, ep);
        },
      ),
      { numRuns: 2000 },
    );
  });

  it("turns arbitrary JSON into a result or a typed error", () => {
    fc.assert(
      fc.property(fc.jsonValue(), status, headers, endpoint, (json, code, h, ep) => {
        outcome(encode(json), code, h, ep);
      }),
      { numRuns: 2000 },
    );
  });

  it("turns arbitrary envelopes, including ones with __proto__ keys, into a result or a typed error", () => {
    const withProto = fc
      .jsonValue()
      .map(
        (results) =>
          `{"responseCode":200,"message":"Success","results":{"__proto__":${JSON.stringify(results)},"items":[{"__proto__":{"areaId":1}}]}}`,
      );
    fc.assert(
      fc.property(
        fc.oneof(
          envelope.map((e) => JSON.stringify(e)),
          withProto,
        ),
        headers,
        endpoint,
        (text, h, ep) => {
          outcome(new TextEncoder().encode(text), 200, h, ep);
        },
      ),
      { numRuns: 3000 },
    );
  });

  it("only succeeds on a 2xx with responseCode 200", () => {
    let successes = 0;
    fc.assert(
      fc.property(envelope, status, endpoint, (body, code, ep) => {
        const result = outcome(encode(body), code, new Headers(), ep);
        if (result === "ok") {
          successes += 1;
          expect(code).toBeGreaterThanOrEqual(200);
          expect(code).toBeLessThan(300);
          expect(body.responseCode).toBe(200);
        }
      }),
      { numRuns: 2000 },
    );
    // The property is not vacuous: some replies do get through (about 1% of the random ones, so
    // around 20 of 2000 runs, varying with the seed; none at all would mean a broken generator).
    expect(successes).toBeGreaterThan(0);
  });

  it("keeps unknown fields of documented records and checks the documented ones exactly", () => {
    const extra = fc.dictionary(
      fc.string().filter((k) => !["governanceId", "governanceName", "__proto__"].includes(k)),
      fc.jsonValue(),
    );
    fc.assert(
      fc.property(fc.integer(), fc.string(), extra, (governanceId, governanceName, more) => {
        const results = [{ ...more, governanceId, governanceName }];
        const parsed = parseCourierReply(
          {
            status: 200,
            headers: new Headers(),
            bytes: encode({ responseCode: 200, message: "Success", results }),
          },
          { endpoint: "governances", action: "testing", schema: governancesSchema },
        );
        expect(parsed).toEqual(JSON.parse(JSON.stringify(results)));
      }),
    );
  });

  it("reads Retry-After as seconds or an HTTP date, and nothing else", () => {
    const now = Date.UTC(2026, 0, 1);
    expect(parseRetryAfter("7", now)).toBe(7000);
    expect(parseRetryAfter(new Date(now + 30_000).toUTCString(), now)).toBe(30_000);
    expect(parseRetryAfter(new Date(now - 30_000).toUTCString(), now)).toBe(0);
    expect(parseRetryAfter("soon", now)).toBeUndefined();
    fc.assert(
      fc.property(fc.string(), (value) => {
        const ms = parseRetryAfter(value, now);
        expect(ms === undefined || (Number.isInteger(ms) && ms >= 0 && ms <= 86_400_000)).toBe(
          true,
        );
      }),
    );
  });

  it.each(["Asia/Kuwait", "America/New_York", "Asia/Kolkata"])(
    "reads each of the three HTTP date formats as GMT, also when the process runs in %s",
    (zone) => {
      const previous = process.env.TZ;
      process.env.TZ = zone;
      try {
        // The machine's zone really is elsewhere: a zone-less date read locally would be off.
        expect(new Date(Date.UTC(1994, 10, 6)).getTimezoneOffset()).not.toBe(0);
        const now = Date.UTC(1994, 10, 6, 8, 49, 0);
        for (const date of [
          "Sun, 06 Nov 1994 08:49:37 GMT", // IMF-fixdate
          "Sunday, 06-Nov-94 08:49:37 GMT", // obsolete RFC 850
          "Sun Nov  6 08:49:37 1994", // obsolete asctime, which names no zone
          "Sun Nov 6 08:49:37 1994",
        ]) {
          expect(parseRetryAfter(date, now), date).toBe(37_000);
        }
      } finally {
        if (previous === undefined) delete process.env.TZ;
        else process.env.TZ = previous;
      }
    },
  );
});

const ADDRESS = {
  governanceId: 1,
  areaId: 2,
  block: "1",
  contactName: "A",
  contactPhone: "99998888",
};
const ORDER = {
  pickupAddress: ADDRESS,
  deliveryAddress: ADDRESS,
  pickupDate: "2026-01-01T10:00:00",
  paymentMethod: "cod",
  packageDetails: { weight: 1, value: 1 },
};

describe("the client, whatever a fetch resolves or rejects with", () => {
  const call = (client: CourierClient, ep: CourierEndpoint): Promise<unknown> => {
    switch (ep) {
      case "governances":
        return client.governances();
      case "areas":
        return client.areas(31);
      case "vehicleTypes":
        return client.vehicleTypes();
      case "orderStatuses":
        return client.orderStatuses();
      case "history":
        return client.history();
      case "getOrder":
        return client.getOrder("abc");
      case "track":
        return client.track("abc");
      case "cancel":
        return client.cancel("abc");
      case "exceptions":
        return client.exceptions();
      case "corporateOrdersReport":
        return client.corporateOrdersReport();
      case "calculatePrice":
        return client.calculatePrice({
          pickupAddress: { governanceId: 1, areaId: 2 },
          deliveryAddress: { governanceId: 1, areaId: 2 },
        });
      case "createOrder":
        return client.createOrder(ORDER);
      case "createBulk":
        return client.createBulk([ORDER, ORDER, ORDER]);
    }
  };

  it("resolves or rejects with a CourierError", async () => {
    const reply = fc.oneof(
      fc.record({
        kind: fc.constant("bytes" as const),
        bytes: fc.uint8Array({ maxLength: 200 }),
        status,
        headers,
      }),
      fc.record({
        kind: fc.constant("json" as const),
        json: fc.oneof(fc.jsonValue(), envelope),
        status,
        headers,
      }),
      fc.record({
        kind: fc.constant("throw" as const),
        error: fc.constantFrom<unknown>(
          new TypeError("fetch failed"),
          new Error("x"),
          "string",
          null,
          Object.assign(new Error("reset"), { code: "ECONNRESET" }),
        ),
      }),
    );
    await fc.assert(
      fc.asyncProperty(reply, endpoint, async (r, ep) => {
        const fakeFetch: typeof fetch = async () => {
          if (r.kind === "throw") throw r.error;
          const body = r.kind === "bytes" ? r.bytes : encode(r.json);
          // Statuses that cannot carry a body (204, 304) are sent without one.
          const empty = [204, 205, 304].includes(r.status);
          return new Response(empty ? null : body, { status: r.status, headers: r.headers });
        };
        const client = createCourierClient({
          baseUrl: "http://127.0.0.1:9",
          apiKey: "k",
          fetch: fakeFetch,
          retries: 0,
        });
        try {
          await call(client, ep);
        } catch (error) {
          if (!isCourierError(error)) throw error;
        }
      }),
      { numRuns: 1000 },
    );
  });
});
