import type http from "node:http";
import type { AddressInfo } from "node:net";
import express from "express";
import { afterEach, describe, expect, it } from "vitest";
import { BODY_LIMITS, BodyBudget, bodyLimitFor, readBodies } from "../../server/body-limit.js";
import { NOT_FRAMEABLE_CSP as SERVER_DEFAULT_CSP } from "../../server/security-headers.js";
import { NOT_FRAMEABLE_CSP } from "../../app/security/frame-policy";
import { chunkedFlood } from "../../bench/support/attacks";

const MiB = 1024 * 1024;
let server: http.Server | undefined;

afterEach(
  () => new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve())),
);

/** An Express app that reads bodies as server.js does and echoes their size. */
async function echoSize(options: Parameters<typeof readBodies>[0] = {}): Promise<string> {
  const app = express();
  app.use(readBodies(options));
  app.post("*", (req, res) => res.json({ bytes: (req.body as Buffer | undefined)?.length ?? 0 }));
  server = app.listen(0, "127.0.0.1");
  await new Promise((resolve) => server!.once("listening", resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

describe("request body limits", () => {
  it("gives each path the limit of its longest matching prefix", () => {
    expect(bodyLimitFor("/webhooks/orders/cancelled")).toBe(4 * MiB);
    expect(bodyLimitFor("/webhooks/app/uninstalled")).toBe(256 * 1024);
    expect(bodyLimitFor("/courier/webhooks/abc")).toBe(64 * 1024);
    expect(bodyLimitFor("/whatsapp/webhooks/abc")).toBe(256 * 1024);
    expect(bodyLimitFor("/auth/login")).toBe(16 * 1024);
    expect(bodyLimitFor("/tracking/abc")).toBe(64 * 1024);
    expect(BODY_LIMITS.every((l) => l.bytes > 0)).toBe(true);
  });

  it("hands a body within its limit to the handler whole", async () => {
    const url = await echoSize();
    const reply = await fetch(`${url}/app/settings`, { method: "POST", body: "x".repeat(5000) });
    expect(await reply.json()).toEqual({ bytes: 5000 });
  });

  it("stops reading a chunked body as soon as it crosses the limit", async () => {
    const url = await echoSize();
    const flood = await chunkedFlood(`${url}/courier/webhooks/t`, { totalBytes: 64 * MiB });
    expect(flood.status).toBe(413);
    expect(flood.completed).toBe(false);
  });

  it("answers 503 when the bodies being read at once would go over the shared budget", async () => {
    const budget = new BodyBudget(100 * 1024);
    expect(budget.take(90 * 1024)).toBe(true);
    const url = await echoSize({ budget });
    const reply = await fetch(`${url}/app/settings`, { method: "POST", body: "x".repeat(20_000) });
    expect(reply.status).toBe(503);
    expect(reply.headers.get("retry-after")).toBe("5");
  });

  it("gives the budget back once an answer is out", async () => {
    const budget = new BodyBudget(MiB);
    const url = await echoSize({ budget });
    for (let i = 0; i < 3; i++) {
      await fetch(`${url}/app/settings`, { method: "POST", body: "x".repeat(500_000) });
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(budget.held).toBe(0);
  });

  it("refuses a compressed body rather than inflate it", async () => {
    const url = await echoSize();
    const reply = await fetch(`${url}/app/settings`, {
      method: "POST",
      headers: { "Content-Encoding": "gzip" },
      body: "not really gzip",
    });
    expect(reply.status).toBe(415);
  });
});

describe("the default frame policy", () => {
  it("is the same in server.js and in the app's document headers", () => {
    expect(SERVER_DEFAULT_CSP).toBe(NOT_FRAMEABLE_CSP);
  });
});
