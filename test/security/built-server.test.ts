import fs from "node:fs";
import path from "node:path";
import { API_SECRET_KEY, getHmac, getJwt, API_KEY } from "@shopify/shopify-api/test-helpers";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { startBuiltServer, type RunningServer } from "../../bench/support/app-server";
import {
  chunkedFlood,
  forgedWebhookHeaders,
  hasFrameProtection,
  probe,
  SHOPIFY_WEBHOOK_ROUTES,
  showsStackTrace,
} from "../../bench/support/attacks";
import { freePort } from "../../bench/support/scratch";
import { TEMPLATE_DB, TEST_DATA_DIR } from "../support/paths";
import { testEnvironment } from "../support/test-env";

/**
 * The attacks of issue 12 against the built server (`npm start`), on loopback, with bounded
 * loads: bodies, frame protection, error pages, tracking guesses. `npm run bench:security` runs
 * the same attacks at full size and reports figures.
 */
const appUrl = inject("appUrl");
const shop = "browser-shop.myshopify.com";
const MiB = 1024 * 1024;

describe("request bodies", () => {
  it.each(SHOPIFY_WEBHOOK_ROUTES)(
    "cuts off a chunked 64 MB post with a made-up signature to /webhooks/%s early",
    async (topic) => {
      const flood = await chunkedFlood(`${appUrl}/webhooks/${topic}`, {
        totalBytes: 64 * MiB,
        headers: forgedWebhookHeaders(topic, shop),
      });
      expect(flood.completed).toBe(false);
      expect(flood.status).toBe(413);
      // What the client wrote includes what loopback's socket buffers took in.
      expect(flood.bytesSent).toBeLessThan(24 * MiB);
    },
  );

  it("refuses a declared length over the limit before reading any of it", async () => {
    const reply = await probe(`${appUrl}/courier/webhooks/any-token`, {
      method: "POST",
      headers: { "Content-Type": "application/json", "Content-Length": String(10 * MiB) },
      body: Buffer.alloc(10 * MiB),
    });
    expect(reply.status).toBe(413);
  });

  it("refuses a 10 MB shop on the login form without echoing it", async () => {
    const shopParam = "a".repeat(10 * MiB);
    const reply = await probe(`${appUrl}/auth/login`, {
      method: "POST",
      headers: { "Content-Type": "application/x-www-form-urlencoded" },
      body: `shop=${shopParam}`,
    });
    expect(reply.status).toBe(413);
    expect(reply.headers.get("location")).toBeNull();
  });

  it("answers a shop name too long to be a shop with the login page, status 400, no redirect", async () => {
    const long = `${"a".repeat(300)}.myshopify.com`;
    const reply = await probe(`${appUrl}/auth/login?shop=${long}`);
    expect(reply.status).toBe(400);
    expect(reply.headers.get("location")).toBeNull();
    expect(reply.body).toContain("Enter a valid shop domain");
  });

  it.each(SHOPIFY_WEBHOOK_ROUTES)(
    "answers 400 to a correctly signed /webhooks/%s whose body is not JSON",
    async (topic) => {
      const body = '{"id": 1, "broken": ';
      const reply = await probe(`${appUrl}/webhooks/${topic}`, {
        method: "POST",
        headers: {
          ...forgedWebhookHeaders(topic, shop),
          "X-Shopify-Hmac-Sha256": getHmac(body, API_SECRET_KEY),
        },
        body,
      });
      expect(reply.status).toBe(400);
    },
  );
});

describe("frame protection", () => {
  it.each([
    "/auth/login",
    "/tracking/not-a-parcel",
    "/no-such-page",
    "/healthz",
    "/auth/exit-iframe?exitIframe=https%3A%2F%2Fevil.example",
  ])("%s cannot be framed by another site", async (page) => {
    const reply = await probe(`${appUrl}${page}`);
    expect(hasFrameProtection(reply.headers)).toBe(true);
  });

  it("lets no shop named only in ?shop= frame the App Bridge bounce page", async () => {
    const reply = await probe(
      `${appUrl}/auth/session-token?shop=attacker.myshopify.com&host=${Buffer.from("admin.shopify.com/store/attacker").toString("base64")}&shopify-reload=%2Fapp`,
    );
    expect(reply.status).toBe(200);
    expect(reply.headers.get("content-security-policy")).not.toContain("attacker.myshopify.com");
    expect(reply.headers.get("content-security-policy")).toMatch(
      /frame-ancestors https:\/\/admin\.shopify\.com/,
    );
  });

  it("names the shop of the verified session token, not the ?shop= parameter", async () => {
    const { token } = await getJwt("browser-shop", API_KEY, API_SECRET_KEY);
    const url = new URL("/app", appUrl);
    url.searchParams.set("embedded", "1");
    url.searchParams.set("shop", "attacker.myshopify.com");
    url.searchParams.set(
      "host",
      Buffer.from("admin.shopify.com/store/attacker").toString("base64"),
    );
    url.searchParams.set("id_token", token);
    const reply = await probe(url.href);
    const csp = reply.headers.get("content-security-policy") ?? "";
    expect(csp).not.toContain("attacker.myshopify.com");
    if (reply.status === 200) expect(csp).toContain(`https://${shop}`);
  });
});

describe("requests refused with their own status, not a server error (issue 24)", () => {
  it("answers 403 to a form posted to a page from another site", async () => {
    const reply = await probe(`${appUrl}/app/settings`, {
      method: "POST",
      headers: {
        "Content-Type": "application/x-www-form-urlencoded",
        Origin: "https://evil.example",
        "Sec-Fetch-Site": "cross-site",
      },
      body: "courierEnvironment=production",
    });
    expect(reply.status).toBe(403);
  });

  it("answers 401 to a session token whose shop is another site", async () => {
    const { token } = await getJwt("browser-shop", API_KEY, API_SECRET_KEY, {
      dest: "https://evil.example",
    });
    const reply = await probe(`${appUrl}/app/settings`, {
      headers: { Authorization: `Bearer ${token}` },
    });
    expect(reply.status).toBe(401);
  });

  it("answers a GET of a courier push URL with 405 and Allow: POST", async () => {
    const reply = await probe(`${appUrl}/courier/webhooks/any-token`);
    expect(reply.status).toBe(405);
    expect(reply.headers.get("allow")).toBe("POST");
  });
});

describe("tracking links", () => {
  it("limits how many links one client may try", async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 80 && !statuses.includes(429); i++) {
      statuses.push((await probe(`${appUrl}/tracking/guess-${i}`)).status);
    }
    expect(statuses[0]).toBe(404);
    expect(statuses).toContain(429);
  });

  it("limits how often one client may ask the shopper's blocks' route", async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 80 && !statuses.includes(429); i++) {
      const url = `${appUrl}/api/shopper/orders/${7000 + i}?confirmation=GUESS${i}&surface=thank-you`;
      statuses.push((await probe(url)).status);
    }
    expect(statuses[0]).toBe(401);
    expect(statuses).toContain(429);
  });
});

describe("with NODE_ENV unset, as `npm start` runs", () => {
  let server: RunningServer;
  const logFile = path.join(TEST_DATA_DIR, "node-env-unset.log");

  beforeAll(async () => {
    const databaseFile = path.join(TEST_DATA_DIR, "node-env-unset.sqlite");
    fs.copyFileSync(TEMPLATE_DB, databaseFile);
    const port = await freePort();
    server = await startBuiltServer({
      port,
      logFile,
      env: {
        ...testEnvironment({
          DATABASE_URL: `file:${databaseFile}`,
          SHOPIFY_APP_URL: `http://127.0.0.1:${port}`,
        }),
        NODE_ENV: undefined,
      },
    });
  }, 60_000);

  afterAll(async () => {
    await server?.stop();
  });

  it.each([
    ["a path that does not decode", "/%E0%A4%A", {}],
    ["an unknown page", "/no-such-page", {}],
    ["an unknown tracking link", "/tracking/not-a-parcel", {}],
    ["an exit-iframe without a destination", "/auth/exit-iframe", {}],
    [
      "an oversized webhook",
      "/webhooks/fulfillments/create",
      { method: "POST", body: Buffer.alloc(8 * MiB), headers: { "Content-Type": "text/plain" } },
    ],
  ] as const)("shows no stack trace or server path for %s", async (_what, page, init) => {
    const reply = await probe(`${server.url}${page}`, init as RequestInit);
    expect(reply.status).toBeGreaterThanOrEqual(400);
    expect(showsStackTrace(reply.body)).toBe(false);
  });

  it("shows its own page for a page that does not exist", async () => {
    const reply = await probe(`${server.url}/no-such-page`);
    expect(reply.status).toBe(404);
    expect(reply.body).toContain("Page not found");
    expect(reply.body).not.toContain("Hey developer");
  });

  it("answers 400 to an exit-iframe request with a destination it will not open", async () => {
    const reply = await probe(
      `${server.url}/auth/exit-iframe?shop=${shop}&exitIframe=${encodeURIComponent("https://evil.example/")}`,
    );
    expect(reply.status).toBe(400);
  });

  it("writes a refused shop name to no log line", async () => {
    const long = `${"b".repeat(300)}.myshopify.com`;
    expect((await probe(`${server.url}/auth/login?shop=${long}`)).status).toBe(400);
    expect(server.log()).not.toContain("b".repeat(300));
  });

  it("writes no stack to its log for unknown pages and tracking links", async () => {
    await probe(`${server.url}/no-such-page`);
    await probe(`${server.url}/tracking/not-a-parcel`);
    expect(showsStackTrace(server.log())).toBe(false);
  });
});
