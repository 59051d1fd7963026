import Database from "better-sqlite3";
import { getHmac } from "@shopify/shopify-api/test-helpers";
import { describe, expect, it } from "vitest";
import prisma from "../../app/db.server";
import { sqliteFilePath } from "../../app/db/sqlite-path";
import { ADMIN_API_VERSION } from "../../app/shopify/api-version";
import { fulfillmentCreatePayload } from "../../bench/support/fulfillment-webhooks";
import { API_SECRET_KEY, shopDomain } from "../support/shopify";
import { startWebProcess } from "../support/web-process";

/**
 * Another process holds the SQLite file's write lock (a backup, a `sqlite3` shell) for 10 s while
 * webhooks arrive at a web process whose worker runs (issue 24). Shopify gives up on a webhook
 * after 5 s: each must be answered within that, recorded (200) or refused for now (503 with
 * Retry-After, so Shopify sends it again), and the process must go on answering meanwhile.
 */

const LOCK_MS = 10_000;
async function timed(url: string, init?: RequestInit) {
  const started = performance.now();
  try {
    const response = await fetch(url, { ...init, signal: AbortSignal.timeout(30_000) });
    await response.arrayBuffer();
    return {
      status: response.status,
      retryAfter: response.headers.get("retry-after"),
      ms: performance.now() - started,
    };
  } catch {
    return { status: 0, retryAfter: null, ms: performance.now() - started };
  }
}

function webhook(port: number, shop: string, fulfillment: number) {
  const body = JSON.stringify(fulfillmentCreatePayload(fulfillment, 700_000 + fulfillment));
  return timed(`http://127.0.0.1:${port}/webhooks/fulfillments/create`, {
    method: "POST",
    headers: {
      "Content-Type": "application/json",
      "X-Shopify-Topic": "fulfillments/create",
      "X-Shopify-Shop-Domain": shop,
      "X-Shopify-API-Version": ADMIN_API_VERSION,
      "X-Shopify-Webhook-Id": `locked-${fulfillment}`,
      "X-Shopify-Hmac-Sha256": getHmac(body, API_SECRET_KEY),
    },
    body,
  }).then((answer) => ({ ...answer, fulfillment }));
}

describe("a SQLite file locked by another process", () => {
  it("answers every webhook within Shopify's 5 s, recorded or refused for now", async () => {
    const shop = shopDomain("locked-file");
    await prisma.shopSettings.create({ data: { shop } });
    const web = startWebProcess({ DELIVERY_WORKER: "on", WITH_WORKER: "1" });
    const port = await web.port();
    expect((await webhook(port, shop, 1)).status).toBe(200);

    const holder = new Database(sqliteFilePath(process.env.DATABASE_URL!));
    holder.exec("BEGIN IMMEDIATE");
    holder
      .prepare(`UPDATE "ShopSettings" SET "updatedAt" = "updatedAt" WHERE "shop" = ?`)
      .run(shop);
    const lockedAt = performance.now();
    const answers: ReturnType<typeof webhook>[] = [];
    const health: ReturnType<typeof timed>[] = [];
    try {
      for (let i = 0; performance.now() - lockedAt < LOCK_MS; i += 1) {
        answers.push(webhook(port, shop, 100 + i));
        if (i % 5 === 0) health.push(timed(`http://127.0.0.1:${port}/healthz`));
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    } finally {
      holder.exec("COMMIT");
      holder.close();
    }
    const settled = await Promise.all(answers);
    const checks = await Promise.all(health);

    expect(web.child.exitCode, web.output()).toBeNull();
    const slowest = Math.max(...settled.map((a) => a.ms));
    expect(slowest, "the slowest webhook answer, in ms").toBeLessThan(5_000);
    const refused = settled.filter((a) => a.status !== 200);
    expect(refused.every((a) => a.status === 503 && a.retryAfter !== null)).toBe(true);
    expect(Math.max(...checks.map((c) => c.ms)), "the slowest health check, in ms").toBeLessThan(
      1_000,
    );

    // Once the lock is gone, every webhook answered 200 has its row, and new ones go through.
    const recorded = new Set(
      (await prisma.delivery.findMany({ where: { shop } })).map((d) => d.fulfillmentId),
    );
    const lost = settled.filter(
      (a) => a.status === 200 && !recorded.has(`gid://shopify/Fulfillment/${a.fulfillment}`),
    );
    expect(lost).toEqual([]);
    expect((await webhook(port, shop, 99_999)).status).toBe(200);
  }, 120_000);
});
