import { inspect } from "node:util";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import {
  CourierAuthError,
  CourierMalformedReplyError,
  CourierTimeoutError,
  CourierUnavailableError,
  CourierValidationError,
  createCourierClient,
  isCourierError,
  type CourierCallEvent,
  type CourierClient,
  type CourierClientOptions,
  type CourierError,
} from "../../app/courier";
import { startCourierSandbox, type CourierSandbox } from "../../sandbox/courier";
import { orderInput, place, TEST_KEY } from "./fixtures";

// Every error class, produced by the sandbox's faults over real HTTP; the request log shows what
// the client actually sent (retries of reads, never of writes).
let sandbox: CourierSandbox;
let events: CourierCallEvent[];

const clientWith = (options: Partial<CourierClientOptions> = {}): CourierClient =>
  createCourierClient({
    baseUrl: sandbox.url,
    apiKey: TEST_KEY,
    retryBaseDelayMs: 5,
    retryMaxDelayMs: 20,
    onEvent: (event) => events.push(event),
    ...options,
  });

async function failure(promise: Promise<unknown>): Promise<CourierError> {
  try {
    await promise;
  } catch (error) {
    expect(isCourierError(error)).toBe(true);
    return error as CourierError;
  }
  throw new Error("expected the call to fail");
}

const calls = (endpoint: string) => sandbox.requestLog.filter((e) => e.endpoint === endpoint);

beforeAll(async () => {
  sandbox = await startCourierSandbox({ acceptedKeys: [TEST_KEY] });
});
afterAll(() => sandbox.close());
beforeEach(() => {
  sandbox.reset();
  events = [];
});

describe("rejected keys", () => {
  it("is an auth error, not retried, when the key is revoked", async () => {
    sandbox.faults.add({ endpoint: "governances", kind: "rejectKey" });
    const error = await failure(clientWith().governances());
    expect(error).toBeInstanceOf(CourierAuthError);
    expect(error).toMatchObject({ status: 401, outcome: "rejected", attempts: 1 });
    expect(error.courierMessage).toMatch(/revoked/);
    expect(calls("governances")).toHaveLength(1);
  });

  it("does not send a key that contains whitespace, and says why", async () => {
    const error = await failure(clientWith({ apiKey: `${TEST_KEY}\n` }).governances());
    expect(error).toBeInstanceOf(CourierAuthError);
    expect(error.outcome).toBe("not_sent");
    expect(error.message).toMatch(/spaces, line breaks/);
    expect(sandbox.requestLog).toHaveLength(0);
  });
});

describe("validation", () => {
  it("refuses an invalid order before sending it, naming each field", async () => {
    const input = orderInput(sandbox);
    input.deliveryAddress = { ...input.deliveryAddress, contactPhone: "12345" };
    input.packageDetails = { ...input.packageDetails, value: -1 };
    const error = await failure(clientWith().createOrder(input));
    expect(error).toBeInstanceOf(CourierValidationError);
    expect(error.outcome).toBe("not_sent");
    expect((error as CourierValidationError).fieldErrors.map((f) => f.field)).toEqual([
      "deliveryAddress.contactPhone",
      "packageDetails.value",
    ]);
    expect(error.message).toMatch(
      /not sent.*deliveryAddress\.contactPhone: “12345” is not a Kuwaiti phone number/,
    );
    expect(sandbox.requestLog).toHaveLength(0);
  });

  it("carries the courier's message and field errors when the courier refuses the order", async () => {
    const input = orderInput(sandbox);
    input.pickupAddress = { ...input.pickupAddress, areaId: place(sandbox, "Jahra").areaId };
    const error = await failure(clientWith().createOrder(input));
    expect(error).toBeInstanceOf(CourierValidationError);
    expect(error).toMatchObject({ status: 400, responseCode: 400, outcome: "rejected" });
    expect(error.courierMessage).toMatch(
      /^Validation failed: pickupAddress\.areaId \d+ is an area of governance/,
    );
    expect((error as CourierValidationError).fieldErrors[0]?.field).toBe("pickupAddress.areaId");
    expect(error.message).toMatch(/courier refused the request while creating the order/);
    expect(sandbox.orders.size).toBe(0);
  });

  it.each(["..", ".", "", "a\nb"])("refuses the order id %j before sending", async (orderId) => {
    const error = await failure(clientWith().getOrder(orderId));
    expect(error).toBeInstanceOf(CourierValidationError);
    expect(error.outcome).toBe("not_sent");
    expect(sandbox.requestLog).toHaveLength(0);
  });

  it("encodes an order id into one path segment", async () => {
    await failure(clientWith().track("a/b?c"));
    expect(sandbox.requestLog[0]).toMatchObject({
      path: "/api/orders/a%2Fb%3Fc/track",
      status: 404,
    });
  });

  it("refuses a base URL that is not http(s) when the client is made", () => {
    expect(() => createCourierClient({ baseUrl: "ftp://courier.example", apiKey: "k" })).toThrow(
      TypeError,
    );
    expect(() => createCourierClient({ baseUrl: "courier.example", apiKey: "k" })).toThrow(
      /absolute URL/,
    );
  });
});

describe("courier unavailable", () => {
  it("retries a read after a 503 and succeeds", async () => {
    sandbox.faults.add({ endpoint: "governances", kind: "error", status: 503 });
    expect(await clientWith().governances()).toHaveLength(6);
    expect(calls("governances").map((e) => e.status)).toEqual([503, 200]);
    expect(events.map((e) => e.result)).toEqual(["retry", "ok"]);
  });

  it("gives up on a read after the configured attempts", async () => {
    sandbox.faults.add({ endpoint: "areas", kind: "error", status: 500, times: 10 });
    const error = await failure(
      clientWith({ retries: 3 }).areas(place(sandbox, "Salmiya").governanceId),
    );
    expect(error).toBeInstanceOf(CourierUnavailableError);
    expect(error).toMatchObject({
      reason: "server_error",
      status: 500,
      outcome: "rejected",
      attempts: 4,
    });
    expect(calls("areas")).toHaveLength(4);
    expect(error.message).toMatch(/problem on its side.*Try again in a few minutes/);
  });

  it("retries calculate-price, a POST without side effects", async () => {
    sandbox.faults.add({ endpoint: "calculatePrice", kind: "error" });
    const input = orderInput(sandbox);
    const quote = await clientWith().calculatePrice({
      pickupAddress: input.pickupAddress,
      deliveryAddress: input.deliveryAddress,
    });
    expect(quote.price).toBe(1.25);
    expect(calls("calculatePrice").map((e) => e.status)).toEqual([503, 200]);
  });

  it.each([
    ["createOrder", (c: CourierClient) => c.createOrder(orderInput(sandbox))],
    ["createBulk", (c: CourierClient) => c.createBulk([orderInput(sandbox)])],
    ["cancel", (c: CourierClient) => c.cancel("3f2a")],
  ] as const)(
    "never retries %s, and says its outcome is unknown after a 5xx",
    async (endpoint, call) => {
      sandbox.faults.add({ endpoint, kind: "error", status: 502, times: 5 });
      const error = await failure(call(clientWith({ retries: 5 })));
      expect(error).toBeInstanceOf(CourierUnavailableError);
      expect(error).toMatchObject({ outcome: "unknown", attempts: 1 });
      expect(error.message).toMatch(/it is not known whether|it is not known which/);
      expect(calls(endpoint)).toHaveLength(1);
    },
  );

  it("honours Retry-After on a 429 before retrying a read", async () => {
    sandbox.faults.add({ endpoint: "vehicleTypes", kind: "rateLimit", retryAfter: 1 });
    const started = performance.now();
    expect(await clientWith().vehicleTypes()).toHaveLength(4);
    expect(performance.now() - started).toBeGreaterThanOrEqual(950);
    expect(calls("vehicleTypes").map((e) => e.status)).toEqual([429, 200]);
    expect(events[0]).toMatchObject({ result: "retry", retryInMs: 1000, status: 429 });
  });

  it("returns a 429 with its Retry-After when the wait is longer than it will sleep", async () => {
    const inTwoMinutes = new Date(Date.now() + 120_000).toUTCString();
    sandbox.faults.add({ endpoint: "orderStatuses", kind: "rateLimit", retryAfter: inTwoMinutes });
    const error = await failure(clientWith().orderStatuses());
    expect(error).toBeInstanceOf(CourierUnavailableError);
    const { retryAfterMs } = error as CourierUnavailableError;
    expect(retryAfterMs).toBeGreaterThan(100_000);
    expect(retryAfterMs).toBeLessThanOrEqual(120_000);
    expect(error).toMatchObject({ reason: "rate_limited", outcome: "rejected", attempts: 1 });
    expect(error.message).toMatch(/too many requests.*Try again in 1\d\d seconds/);
  });

  it("never retries a 429 on a create either", async () => {
    sandbox.faults.add({ endpoint: "createOrder", kind: "rateLimit", retryAfter: 0 });
    const error = await failure(clientWith().createOrder(orderInput(sandbox)));
    expect(error).toMatchObject({ reason: "rate_limited", outcome: "rejected", retryAfterMs: 0 });
    expect(calls("createOrder")).toHaveLength(1);
    expect(sandbox.orders.size).toBe(0);
  });

  it("retries a read when the connection is closed", async () => {
    sandbox.faults.add({ endpoint: "governances", kind: "closeConnection" });
    expect(await clientWith().governances()).toHaveLength(6);
    expect(calls("governances").map((e) => e.status)).toEqual([null, 200]);
  });

  it("reports a create whose connection was lost as unknown, without retrying", async () => {
    sandbox.faults.add({ endpoint: "createOrder", kind: "closeConnection", afterCommit: true });
    const error = await failure(clientWith().createOrder(orderInput(sandbox)));
    expect(error).toBeInstanceOf(CourierUnavailableError);
    expect(error).toMatchObject({ reason: "connection_lost", outcome: "unknown", attempts: 1 });
    expect(sandbox.orders.size).toBe(1);
    expect(calls("createOrder")).toHaveLength(1);
  });

  it("says nothing was sent when the courier refuses connections", async () => {
    const gone = await startCourierSandbox();
    const url = gone.url;
    await gone.close();
    const error = await failure(
      clientWith({ baseUrl: url, retries: 1 }).createOrder(orderInput(sandbox)),
    );
    expect(error).toBeInstanceOf(CourierUnavailableError);
    expect(error).toMatchObject({ reason: "connection_refused", outcome: "not_sent", attempts: 1 });
    expect(error.message).toMatch(/could not be reached.*Nothing was sent/);
  });
});

describe("timeouts", () => {
  it("leaves a create whose reply never came as unknown, without retrying, though the order exists", async () => {
    sandbox.faults.add({ endpoint: "createOrder", kind: "commitThenHang" });
    const client = clientWith({ timeoutMs: 300, retries: 5 });
    const error = await failure(client.createOrder(orderInput(sandbox, { notes: "ref:KCS-777" })));
    expect(error).toBeInstanceOf(CourierTimeoutError);
    expect(error).toMatchObject({ outcome: "unknown", timeoutMs: 300, attempts: 1 });
    expect(error.message).toMatch(
      /did not answer within 0\.3 seconds while creating the order, so it is not known whether the courier created the order\. Check the courier's order history/,
    );
    // The sandbox committed it, and the client did not try again.
    expect(sandbox.orders.size).toBe(1);
    expect(calls("createOrder")).toHaveLength(1);
    // What the app does next: look for its reference in history.
    const found = await client.history({ search: "KCS-777" });
    expect(found.orders.map((o) => o.orderId)).toEqual([...sandbox.orders.keys()]);
  });

  it("retries a read that timed out", async () => {
    sandbox.faults.add({ endpoint: "track", kind: "commitThenHang" });
    const client = clientWith({ timeoutMs: 200 });
    const created = await client.createOrder(orderInput(sandbox));
    const tracking = await client.track(created.orderId);
    expect(tracking.status).toBe("pending");
    expect(calls("track")).toHaveLength(2);
    expect(events.filter((e) => e.endpoint === "track").map((e) => [e.result, e.error])).toEqual([
      ["retry", "CourierTimeoutError"],
      ["ok", undefined],
    ]);
  });

  it("retries a read whose reply stopped halfway through the body, as reads are", async () => {
    sandbox.faults.add({ endpoint: "governances", kind: "stallBody" });
    const client = clientWith({ timeoutMs: 200 });
    expect(await client.governances()).toHaveLength(6);
    expect(calls("governances")).toHaveLength(2);
    // The headers had come (status 200): it is the body's reading that timed out.
    expect(events.map((e) => [e.result, e.error, e.status])).toEqual([
      ["retry", "CourierTimeoutError", 200],
      ["ok", undefined, 200],
    ]);
  });

  it("gives up on a read whose body keeps stalling, after the configured attempts", async () => {
    sandbox.faults.add({ endpoint: "areas", kind: "stallBody", times: 3 });
    const error = await failure(
      clientWith({ timeoutMs: 150, retries: 2 }).areas(place(sandbox, "Salmiya").governanceId),
    );
    expect(error).toBeInstanceOf(CourierTimeoutError);
    expect(error).toMatchObject({ status: 200, timeoutMs: 150, attempts: 3 });
    expect(calls("areas")).toHaveLength(3);
  });

  it("leaves a create whose reply stopped halfway through the body as unknown, without retrying", async () => {
    sandbox.faults.add({ endpoint: "createOrder", kind: "stallBody" });
    const client = clientWith({ timeoutMs: 300, retries: 5 });
    const error = await failure(client.createOrder(orderInput(sandbox)));
    expect(error).toBeInstanceOf(CourierTimeoutError);
    expect(error).toMatchObject({ outcome: "unknown", status: 200, timeoutMs: 300, attempts: 1 });
    expect(error.message).toMatch(/it is not known whether the courier created the order/);
    expect(sandbox.orders.size).toBe(1);
    expect(calls("createOrder")).toHaveLength(1);
  });

  it("answers slow but in time", async () => {
    sandbox.faults.add({ endpoint: "governances", kind: "latency", latencyMs: 100 });
    expect(await clientWith({ timeoutMs: 2000 }).governances()).toHaveLength(6);
    expect(calls("governances")[0]?.fault).toBe("latency");
  });
});

describe("malformed replies", () => {
  it("reports broken JSON on a read, without retrying", async () => {
    sandbox.faults.add({ endpoint: "governances", kind: "malformedJson" });
    const error = await failure(clientWith().governances());
    expect(error).toBeInstanceOf(CourierMalformedReplyError);
    expect(error).toMatchObject({ status: 200, detail: "the reply is not JSON", attempts: 1 });
    expect(error.message).toMatch(/could not be understood.*Your settings are not the cause/);
  });

  it("leaves a create with a broken reply as unknown, since the courier made the order", async () => {
    sandbox.faults.add({ endpoint: "createOrder", kind: "malformedJson" });
    const error = await failure(clientWith().createOrder(orderInput(sandbox)));
    expect(error).toBeInstanceOf(CourierMalformedReplyError);
    expect(error.outcome).toBe("unknown");
    expect(sandbox.orders.size).toBe(1);
  });

  it("reports a reply that is not the documented shape", async () => {
    const fakeFetch: typeof fetch = async () =>
      Response.json({
        responseCode: 200,
        message: "Success",
        results: [{ governanceId: "31", governanceName: "x" }],
      });
    const error = await failure(clientWith({ fetch: fakeFetch }).governances());
    expect(error).toBeInstanceOf(CourierMalformedReplyError);
    expect(error.detail).toMatch(/^results\.0\.governanceId: /);
  });

  it("reports a redirect instead of following it", async () => {
    const fakeFetch: typeof fetch = async () =>
      new Response(null, { status: 302, headers: { location: "https://elsewhere.example/login" } });
    const error = await failure(clientWith({ fetch: fakeFetch }).governances());
    expect(error).toBeInstanceOf(CourierMalformedReplyError);
    expect(error.detail).toMatch(/redirected to https:\/\/elsewhere\.example\/login/);
  });
});

describe("the API key never leaks", () => {
  const KEY = "sk_echo_4b1d9e77c2a8";
  const contains = (value: string) => value.includes(KEY);

  function assertClean(error: unknown) {
    expect(isCourierError(error)).toBe(true);
    const e = error as CourierError;
    for (const text of [
      e.message,
      e.stack ?? "",
      String(e),
      JSON.stringify(e),
      JSON.stringify(e.body ?? null),
      e.courierMessage ?? "",
      inspect(e, { depth: null, showHidden: true }),
      inspect(e.cause, { depth: null, showHidden: true }),
    ]) {
      expect(contains(text), text).toBe(false);
    }
  }

  it("is redacted when the courier echoes it back in a message and a body", async () => {
    const echo: typeof fetch = async (_url, init) => {
      const header = new Headers(init?.headers).get("authorization") ?? "";
      return Response.json(
        {
          responseCode: 401,
          message: `Unknown key ${header}`,
          results: { received: header, [header]: 1 },
        },
        { status: 401 },
      );
    };
    const error = await failure(clientWith({ apiKey: KEY, fetch: echo }).governances());
    expect(error).toBeInstanceOf(CourierAuthError);
    expect(error.courierMessage).toBe("Unknown key ApiKey [redacted]");
    assertClean(error);
  });

  it("is redacted from a transport failure's cause chain", async () => {
    const failing: typeof fetch = async (_url, init) => {
      const header = new Headers(init?.headers).get("authorization");
      throw new TypeError("fetch failed", {
        cause: Object.assign(new Error(`socket hang up while sending ${header}`), {
          code: "ECONNRESET",
        }),
      });
    };
    const error = await failure(
      clientWith({ apiKey: KEY, fetch: failing, retries: 0 }).createOrder(orderInput(sandbox)),
    );
    expect(error).toMatchObject({ reason: "connection_lost", outcome: "unknown" });
    assertClean(error);
    expect(inspect(error.cause, { depth: null })).toContain("[redacted]");
  });

  it("is redacted from validation messages that echo the input", async () => {
    const client = clientWith({ apiKey: KEY });
    const input = orderInput(sandbox);
    input.deliveryAddress = { ...input.deliveryAddress, contactPhone: KEY };
    assertClean(await failure(client.createOrder(input)));
    assertClean(await failure(client.getOrder(`${KEY}\n`)));
  });

  it("appears in no event, no request log entry and no error of any fault", async () => {
    const keyed = await startCourierSandbox({ acceptedKeys: [KEY] });
    try {
      const client = createCourierClient({
        baseUrl: keyed.url,
        apiKey: KEY,
        timeoutMs: 200,
        retryBaseDelayMs: 1,
        onEvent: (e) => events.push(e),
      });
      for (const kind of [
        "error",
        "rateLimit",
        "commitThenHang",
        "malformedJson",
        "closeConnection",
        "rejectKey",
        "stallBody",
      ] as const) {
        keyed.faults.add({ endpoint: "createOrder", kind, retryAfter: 0 });
        assertClean(await failure(client.createOrder(orderInput(keyed))));
      }
      await client.governances();
      expect(contains(JSON.stringify(events))).toBe(false);
      expect(contains(JSON.stringify(keyed.requestLog))).toBe(false);
    } finally {
      await keyed.close();
    }
  });
});
