import { getHmac } from "@shopify/shopify-api/test-helpers";
import { describe, expect, it } from "vitest";
import prisma from "../../app/db.server";
import { fulfillmentCreatePayload } from "../../bench/support/fulfillment-webhooks";
import { ADMIN_API_VERSION } from "../../app/shopify/api-version";
import { API_SECRET_KEY, shopDomain } from "../support/shopify";
import { testEnvironment } from "../support/test-env";
import { startWebProcess } from "../support/web-process";
import { withAdminConnection } from "./support/server";
import { TEST_DATABASE_URL } from "./setup/file";

/**
 * A PostgreSQL restart or failover (issue 24): every connection of the web process is ended by
 * the server while signed webhooks keep arriving. The process must live on, answer again within
 * seconds, and have recorded every webhook it acknowledged.
 */

const APPLICATION = "webhook-child";
function startChild() {
  // The child's connections carry their own application name, so only they are ended: this
  // process's connections to the same database stay (they are not what is tested).
  const url = new URL(TEST_DATABASE_URL);
  url.searchParams.set("application_name", APPLICATION);
  return startWebProcess(testEnvironment({ DATABASE_URL: url.toString() }));
}

async function endConnections(): Promise<number> {
  return withAdminConnection(async (client) => {
    const { rowCount } = await client.query(
      "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = $1",
      [APPLICATION],
    );
    return rowCount ?? 0;
  });
}

async function sendWebhook(port: number, shop: string, fulfillment: number) {
  const body = JSON.stringify(fulfillmentCreatePayload(fulfillment, 500_000 + fulfillment));
  try {
    const response = await fetch(`http://127.0.0.1:${port}/webhooks/fulfillments/create`, {
      method: "POST",
      headers: {
        "Content-Type": "application/json",
        "X-Shopify-Topic": "fulfillments/create",
        "X-Shopify-Shop-Domain": shop,
        "X-Shopify-API-Version": ADMIN_API_VERSION,
        "X-Shopify-Webhook-Id": `drop-${fulfillment}`,
        "X-Shopify-Hmac-Sha256": getHmac(body, API_SECRET_KEY),
      },
      body,
      signal: AbortSignal.timeout(10_000),
    });
    return { fulfillment, status: response.status };
  } catch {
    return { fulfillment, status: 0 };
  }
}

describe("the web process on PostgreSQL", () => {
  it("lives through the server ending its connections under load, and loses no acknowledged webhook", async () => {
    const shop = shopDomain("pg-drop");
    await prisma.shopSettings.create({ data: { shop } });
    const web = startChild();
    const port = await web.port();

    // Webhooks at about 40 a second for 4 s; the server ends every connection of the process
    // twice meanwhile, mid-transaction for some of them.
    const answers: Promise<{ fulfillment: number; status: number }>[] = [];
    let ended = 0;
    for (let i = 0; i < 160; i += 1) {
      answers.push(sendWebhook(port, shop, 9_000 + i));
      if (i === 50 || i === 110) ended += await endConnections();
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
    const settled = await Promise.all(answers);
    expect(ended, "connections ended by the server").toBeGreaterThan(0);
    expect(web.child.exitCode, web.output()).toBeNull();

    // A transaction that met the drop ran again on a new connection: every webhook was answered
    // 200, and every one has its row.
    expect(settled.filter((a) => a.status !== 200)).toEqual([]);
    const acknowledged = settled.map((a) => a.fulfillment);
    const recorded = new Set(
      (await prisma.delivery.findMany({ where: { shop }, select: { fulfillmentId: true } })).map(
        (d) => d.fulfillmentId,
      ),
    );
    const lost = acknowledged.filter((f) => !recorded.has(`gid://shopify/Fulfillment/${f}`));
    expect(lost).toEqual([]);

    // And it answers again at once.
    const started = Date.now();
    let health = 0;
    while (health !== 200 && Date.now() - started < 5_000) {
      health = await fetch(`http://127.0.0.1:${port}/healthz`).then(
        (r) => r.status,
        () => 0,
      );
    }
    expect(health).toBe(200);
    expect((await sendWebhook(port, shop, 9_999)).status).toBe(200);
  }, 90_000);
});
