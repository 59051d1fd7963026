import { createHmac } from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { API_SECRET_KEY } from "@shopify/shopify-api/test-helpers";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { type ShopifyStandIn } from "../../sandbox/shopify";
import { startTestStandIn } from "./support";

// The stand-in's checkout, asking the app's carrier service for rates as Shopify's does
// (`POST /__standin/checkout/rates`), against a tiny callback server that answers as each test says.

interface Received {
  headers: http.IncomingHttpHeaders;
  raw: string;
}

type Answer = { status?: number; body?: string; delayMs?: number };

const RATE = {
  service_name: "Courier",
  service_code: "courier-delivery",
  total_price: "2000",
  description: "Next working day",
  currency: "KWD",
};

describe("the stand-in's checkout rates", () => {
  let standIn: ShopifyStandIn;
  let callback: http.Server;
  let callbackUrl: string;
  let answer: Answer;
  const received: Received[] = [];

  const askForRates = async (extra: Record<string, unknown> = {}) => {
    const response = await fetch(`${standIn.url}/__standin/checkout/rates`, {
      method: "POST",
      body: JSON.stringify({
        destination: {
          country: "KW",
          province: "Hawalli",
          city: "Salmiya",
          address1: "Block 10, Street 5",
          address2: "House 12",
        },
        items: [
          { grams: 350, price: "12.500", quantity: 2 },
          { grams: 1200, price: 7250, quantity: 1 },
        ],
        currency: "KWD",
        locale: "ar",
        ...extra,
      }),
    });
    expect(response.status).toBe(200);
    return (await response.json()) as Record<string, unknown>;
  };

  beforeAll(async () => {
    standIn = await startTestStandIn();
    callback = http.createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on("data", (chunk: Buffer) => chunks.push(chunk));
      req.on("end", () => {
        received.push({ headers: req.headers, raw: Buffer.concat(chunks).toString("utf8") });
        const reply = () => {
          if (res.destroyed) return;
          res.writeHead(answer.status ?? 200, { "content-type": "application/json" });
          res.end(answer.body ?? JSON.stringify({ rates: [RATE] }));
        };
        if (answer.delayMs) setTimeout(reply, answer.delayMs);
        else reply();
      });
    });
    await new Promise<void>((resolve) => callback.listen(0, "127.0.0.1", resolve));
    callbackUrl = `http://127.0.0.1:${(callback.address() as AddressInfo).port}/checkout/rates/tok`;
  });

  beforeEach(() => {
    standIn.store.shipping.reset();
    standIn.store.addLocation({ name: "Shuwaikh Warehouse" });
    const created = standIn.store.shipping.tryCreate({
      name: "Courier",
      callbackUrl,
      active: true,
      supportsServiceDiscovery: true,
    });
    expect(created.ok).toBe(true);
    received.length = 0;
    answer = {};
  });

  afterAll(async () => {
    callback.closeAllConnections();
    await new Promise<void>((resolve) => callback.close(() => resolve()));
    await standIn.close();
  });

  it("sends Shopify's rate request with prices and totals in subunits", async () => {
    await askForRates();
    expect(received).toHaveLength(1);
    const body = JSON.parse(received[0]!.raw) as { rate: Record<string, unknown> };
    expect(body.rate).toMatchObject({
      origin: { country: "KW", province: "KU", city: "Shuwaikh Industrial" },
      destination: {
        country: "KW",
        province: "Hawalli",
        city: "Salmiya",
        address1: "Block 10, Street 5",
        address2: "House 12",
        postal_code: null,
      },
      items: [
        { grams: 350, price: 12500, quantity: 2, requires_shipping: true },
        { grams: 1200, price: 7250, quantity: 1 },
      ],
      currency: "KWD",
      locale: "ar",
      order_totals: { subtotal_price: "32250", total_price: "32250", discount_amount: "0" },
    });
  });

  it("signs the raw body with the app's secret as a webhook is signed", async () => {
    await askForRates();
    const { headers, raw } = received[0]!;
    expect(headers["content-type"]).toBe("application/json");
    expect(headers["x-shopify-shop-domain"]).toBe(standIn.shop);
    expect(headers["x-shopify-hmac-sha256"]).toBe(
      createHmac("sha256", API_SECRET_KEY).update(raw).digest("base64"),
    );
  });

  it("shows the rates a 200 answer lists", async () => {
    const result = await askForRates();
    expect(result).toMatchObject({ shown: "rates", rates: [RATE], status: 200 });
    expect(result.elapsedMs).toEqual(expect.any(Number));
  });

  it("shows cannot ship for an empty list", async () => {
    answer = { body: JSON.stringify({ rates: [] }) };
    expect(await askForRates()).toMatchObject({ shown: "cannot_ship" });
  });

  it("shows backup rates for a 500", async () => {
    answer = { status: 500, body: "oops" };
    expect(await askForRates()).toMatchObject({ shown: "backup_rates", reason: "HTTP 500" });
  });

  it("shows backup rates when the answer is late", async () => {
    answer = { delayMs: 1_000 };
    const result = await askForRates({ timeoutMs: 200 });
    expect(result).toMatchObject({ shown: "backup_rates", reason: "no answer within 200 ms" });
    expect(result.elapsedMs).toBeLessThan(900);
  });

  it("shows backup rates for an answer that is not JSON", async () => {
    answer = { body: "<html>" };
    expect(await askForRates()).toMatchObject({ shown: "backup_rates" });
  });

  it("shows backup rates for a rate without a required field", async () => {
    answer = { body: JSON.stringify({ rates: [{ ...RATE, service_code: undefined }] }) };
    expect(await askForRates()).toMatchObject({
      shown: "backup_rates",
      reason: "rate 0: service_code is missing",
    });
  });

  it("asks nobody once Shopify deactivated the service", async () => {
    const downgrade = await fetch(`${standIn.url}/__standin/carrier-services/deactivate`, {
      method: "POST",
    });
    expect(downgrade.status).toBe(200);
    expect(await askForRates()).toMatchObject({ shown: "no_carrier_service" });
    expect(received).toHaveLength(0);
  });
});

describe("the stand-in's plans", () => {
  let standIn: ShopifyStandIn;
  const create = `#graphql
    mutation Create($input: DeliveryCarrierServiceCreateInput!) {
      carrierServiceCreate(input: $input) {
        carrierService { id active }
        userErrors { field message code }
      }
    }`;
  const input = {
    name: "Courier",
    callbackUrl: "https://app.example/checkout/rates/tok",
    active: true,
    supportsServiceDiscovery: true,
  };

  beforeAll(async () => {
    standIn = await startTestStandIn();
  });
  beforeEach(() => standIn.store.shipping.reset());
  afterAll(() => standIn.close());

  it("refuses carrierServiceCreate on the Basic plan with CARRIER_SERVICE_CREATE_FAILED", async () => {
    await fetch(`${standIn.url}/__standin/plan`, {
      method: "POST",
      body: JSON.stringify({ plan: "basic" }),
    });
    const reply = standIn.api.execute({ query: create, variables: { input } });
    expect(reply.body).toMatchObject({
      data: {
        carrierServiceCreate: {
          carrierService: null,
          userErrors: [{ field: null, code: "CARRIER_SERVICE_CREATE_FAILED" }],
        },
      },
    });
  });

  it("deactivates the services on a downgrade and keeps them so after an upgrade", async () => {
    standIn.api.execute({ query: create, variables: { input } });
    standIn.store.shipping.setPlan("shopify");
    standIn.store.shipping.setPlan("advanced");
    expect(standIn.store.shipping.carrierServices().map((s) => s.active)).toEqual([false]);
  });

  it("refuses a plan it does not know", async () => {
    const response = await fetch(`${standIn.url}/__standin/plan`, {
      method: "POST",
      body: JSON.stringify({ plan: "enterprise" }),
    });
    expect(response.status).toBe(422);
  });
});
