import { afterEach, describe, expect, it } from "vitest";
import prisma from "../../app/db.server";
import { cancelDelivery } from "../../app/actions/cancel.server";
import { productionDependencies } from "../../app/pipeline/runner.server";
import { quoteOrder } from "../../app/actions/quote.server";
import { MAX_STEP_FAILURES } from "../../app/domain/lease-policy";
import { resetEnvForTests } from "../../app/env.server";
import { tFor } from "../../app/i18n/instance";
import { readCourierApiKey } from "../../app/models/courier-account.server";
import { createPushCredentials } from "../../app/models/push-credentials.server";
import { action, loader } from "../../app/routes/app.settings";
import { action as courierWebhook } from "../../app/routes/courier.webhooks.$token";
import { setUpCourierSandbox, SANDBOX_KEY } from "../support/courier-sandbox";
import { testWorker } from "../support/pipeline";
import { adminFetchRequest, callRoute, installShop, shopDomain } from "../support/shopify";
import { TEST_ENCRYPTION_KEYS } from "../support/test-env";

// The stored courier key sealed with an encryption key the app no longer has (its id removed from
// ENCRYPTION_KEYS): every place that reads it answers in plain words instead of failing with a 500.
const shop = shopDomain("unreadable-key");
const sandbox = setUpCourierSandbox();
const PLAIN =
  "The saved courier key can no longer be read (the app's encryption keys changed); paste it again.";

async function post(form: Record<string, string>) {
  const response = await callRoute(
    action,
    await adminFetchRequest(shop, "/app/settings", { form }),
  );
  return { status: response.status, body: await response.json() };
}

async function load() {
  return (await callRoute(loader, await adminFetchRequest(shop, "/app/settings"))).json();
}

/** Connects with the sandbox key, then replaces ENCRYPTION_KEYS by a key with another id. */
async function connectThenRetireEncryptionKey() {
  await installShop(shop);
  expect(
    (await post({ intent: "connect", courierEnvironment: "sandbox", apiKey: SANDBOX_KEY })).status,
  ).toBe(200);
  process.env.ENCRYPTION_KEYS = `t2:${Buffer.alloc(32, 9).toString("base64")}`;
  resetEnvForTests();
  await expect(readCourierApiKey(shop)).rejects.toThrow(/no longer in ENCRYPTION_KEYS/);
}

afterEach(() => {
  process.env.ENCRYPTION_KEYS = TEST_ENCRYPTION_KEYS;
  resetEnvForTests();
});

describe("a stored courier key that can no longer be decrypted", () => {
  it("makes Test connection answer in plain words, and Settings show it", async () => {
    await connectThenRetireEncryptionKey();
    const before = sandbox().requestLog.length;
    expect(await post({ intent: "connect", courierEnvironment: "sandbox" })).toEqual({
      status: 400,
      body: { ok: false, error: PLAIN },
    });
    expect(sandbox().requestLog).toHaveLength(before);
    const page = await load();
    expect(page.lastCheck.error).toBe(PLAIN);
    expect(page.key.hint).toBe(`••••••••${SANDBOX_KEY.slice(-4)}`);
  });

  it("makes Refresh master data answer in plain words", async () => {
    await connectThenRetireEncryptionKey();
    expect(await post({ intent: "refresh-master-data" })).toEqual({
      status: 400,
      body: { ok: false, error: PLAIN },
    });
  });

  it("is replaced by pasting the key again", async () => {
    await connectThenRetireEncryptionKey();
    const { status, body } = await post({
      intent: "connect",
      courierEnvironment: "sandbox",
      apiKey: SANDBOX_KEY,
    });
    expect(status).toBe(200);
    expect(body.ok).toBe(true);
    expect(await readCourierApiKey(shop)).toBe(SANDBOX_KEY);
    expect((await load()).lastCheck.error).toBeNull();
  });

  it("gives the worker and the tracking sync no courier, rather than an exception", async () => {
    await connectThenRetireEncryptionKey();
    await prisma.shopSettings.update({ where: { shop }, data: { courierCheckError: null } });
    await expect(productionDependencies().courierFor(shop, "sandbox")).resolves.toBeNull();
    expect((await load()).lastCheck.error).toBe(PLAIN);
  });

  it("makes a delivery wait saying the key must be pasted again, and go on at once when it is", async () => {
    await connectThenRetireEncryptionKey();
    const delivery = await prisma.delivery.create({
      data: {
        shop,
        orderId: "gid://shopify/Order/2",
        fulfillmentId: "gid://shopify/Fulfillment/2",
        source: "webhook",
        state: "ready",
        environment: "sandbox",
        reference: "KCS-UNREADABLE-2",
        request: "{}",
        nextAttemptAt: new Date(),
      },
    });
    await testWorker().drain();
    const waiting = await prisma.delivery.findUniqueOrThrow({ where: { id: delivery.id } });
    expect(waiting.state).toBe("ready");
    expect(waiting.lastError).toBe(PLAIN);
    expect(waiting.nextAttemptAt!.getTime()).toBeGreaterThan(Date.now() + 10 * 60_000);
    expect(sandbox().requestLog.filter((r) => r.endpoint === "createOrder")).toHaveLength(0);

    // Pasting the key again makes the waiting delivery due now, not in a quarter of an hour.
    expect(
      (await post({ intent: "connect", courierEnvironment: "sandbox", apiKey: SANDBOX_KEY }))
        .status,
    ).toBe(200);
    const resumed = await prisma.delivery.findUniqueOrThrow({ where: { id: delivery.id } });
    expect(resumed.nextAttemptAt!.getTime()).toBeLessThanOrEqual(Date.now());
  });

  it("makes a cancel at the courier answer in plain words", async () => {
    await connectThenRetireEncryptionKey();
    const delivery = await prisma.delivery.create({
      data: {
        shop,
        orderId: "gid://shopify/Order/1",
        fulfillmentId: "gid://shopify/Fulfillment/1",
        source: "webhook",
        state: "created",
        environment: "sandbox",
        reference: "KCS-UNREADABLE-1",
        courierOrderId: "3f2a",
        courierOrderNumber: "KW100001",
      },
    });
    // The cancellation is kept (the worker carries it out once the key is pasted again) and the
    // merchant is told the real reason, not that no key is stored.
    expect(await cancelDelivery(shop, delivery.id, "testing")).toEqual({
      ok: true,
      state: "requested",
      message: { code: "courier_key_unreadable", params: {} },
    });
    expect(sandbox().requestLog.filter((r) => r.endpoint === "cancel")).toHaveLength(0);
    const kept = await prisma.delivery.findUniqueOrThrow({ where: { id: delivery.id } });
    expect(kept.cancelRequestedAt).toBeInstanceOf(Date);
    expect(kept.lastError).toBe(PLAIN);
  });

  it("keeps a cancellation while the key cannot be read, however long, and carries it out once the key is pasted again", async () => {
    await connectThenRetireEncryptionKey();
    // Sent, but its reply was lost: only the courier's history says whether it exists.
    const delivery = await prisma.delivery.create({
      data: {
        shop,
        orderId: "gid://shopify/Order/3",
        fulfillmentId: "gid://shopify/Fulfillment/3",
        source: "webhook",
        state: "unknown",
        unknownSince: new Date(Date.now() - 60 * 60_000),
        environment: "sandbox",
        reference: "KCS-UNREADABLE-3",
        request: "{}",
      },
    });
    await cancelDelivery(shop, delivery.id, "testing");
    const worker = testWorker();
    for (let round = 0; round < 3 * MAX_STEP_FAILURES; round += 1) {
      worker.advance(20 * 60_000);
      await worker.drain();
    }
    const waiting = await prisma.delivery.findUniqueOrThrow({ where: { id: delivery.id } });
    expect(waiting).toMatchObject({
      state: "unknown",
      cancelRequestedAt: expect.any(Date),
      lastError: PLAIN,
    });
    expect(waiting.nextAttemptAt!.getTime()).toBeGreaterThan(Date.now());

    // Pasting the key again makes the pending cancellation due now, and the worker carries it out.
    expect(
      (await post({ intent: "connect", courierEnvironment: "sandbox", apiKey: SANDBOX_KEY }))
        .status,
    ).toBe(200);
    const resumed = await prisma.delivery.findUniqueOrThrow({ where: { id: delivery.id } });
    expect(resumed.nextAttemptAt!.getTime()).toBeLessThanOrEqual(Date.now());
    // History shows nothing: believed at a second look (ADR 0018), then cancelled here.
    const after = testWorker();
    await after.drain();
    after.advance(60_000);
    await after.drain();
    expect(await prisma.delivery.findUniqueOrThrow({ where: { id: delivery.id } })).toMatchObject({
      state: "cancelled",
      cancelRequestedAt: null,
    });
    expect(sandbox().requestLog.filter((r) => r.endpoint === "createOrder")).toHaveLength(0);
  });

  it("makes a price quote answer in plain words", async () => {
    await connectThenRetireEncryptionKey();
    const admin = { graphql: async () => Response.json({ data: { nodes: [] } }) };
    expect(await quoteOrder(shop, admin, "gid://shopify/Order/1")).toEqual({
      ok: false,
      error: { code: "courier_key_unreadable", params: {} },
    });
  });

  it("leaves Settings loading when the push secret no longer decrypts either, saying what to do", async () => {
    await installShop(shop);
    await post({ intent: "connect", courierEnvironment: "sandbox", apiKey: SANDBOX_KEY });
    const { token } = await createPushCredentials(shop);
    process.env.ENCRYPTION_KEYS = `t2:${Buffer.alloc(32, 9).toString("base64")}`;
    resetEnvForTests();
    // The courier's pushes to that URL are refused plainly (polling goes on), not a 500.
    const pushed = await callRoute(
      courierWebhook,
      new Request(`https://app.example/courier/webhooks/${token}`, {
        method: "POST",
        body: "{}",
        headers: { "content-type": "application/json" },
      }),
      { token },
    );
    expect(pushed.status).toBe(401);
    expect(await pushed.text()).toMatch(/new URL and secret/);
    const page = await load();
    // The loader says the secret is unreadable (null); the page's words for it are in the
    // catalogs (ADR 0040), naming the button that makes a new one.
    expect(page.tracking.push).toEqual({
      url: expect.stringMatching(new RegExp(`/courier/webhooks/${token}$`)),
      secret: null,
    });
    const words = tFor("en", "settings");
    expect(words("push.unreadable")).toMatch(/can no longer be read/);
    expect(words("push.unreadable")).toContain(`“${words("push.renew")}”`);
    expect(tFor("ar", "settings")("push.unreadable")).toContain(
      `«${tFor("ar", "settings")("push.renew")}»`,
    );
    // A new URL and secret replace it.
    expect(await post({ intent: "push-on" })).toMatchObject({ status: 200 });
    expect((await load()).tracking.push).toMatchObject({ secret: expect.any(String) });
  });
});
