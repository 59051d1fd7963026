import { afterEach, beforeEach, describe, expect, it } from "vitest";
import prisma from "../../app/db.server";
import { deliveryPage } from "../../app/pages/delivery.server";
import { LONG_WAIT_MS } from "../../app/domain/waits";
import { setUpCourierSandbox } from "../support/courier-sandbox";
import { testWorker } from "../support/pipeline";
import { startStandInShop, type StandInShop } from "../support/standin-shop";

/**
 * Orders with many line items against the Shopify stand-in's real cost bucket (2,000 points,
 * 100 restored a second, as the Standard plan), on a simulated clock (issue 24).
 */
const clock = { now: new Date() };
setUpCourierSandbox({ clock: () => clock.now.getTime() });
let shopify: StandInShop | undefined;
beforeEach(() => {
  clock.now = new Date();
});
afterEach(async () => {
  await shopify?.close();
  shopify = undefined;
});

const WORKING = ["pending", "ready", "creating", "unknown", "created"];

/** An order of `count` lines, one item of 200 g at 1.250 KWD each, fulfilled now; its shop. */
async function fulfilLargeOrder(name: string, count: number) {
  shopify = await startStandInShop(name, clock);
  const { fulfillmentId } = shopify.fulfilNewOrder({
    lineItems: Array.from({ length: count }, (_, i) => ({
      title: `Item ${i + 1}`,
      quantity: 1,
      price: "1.250",
      grams: 200,
    })),
  });
  await shopify.standIn.webhooks.flush();
  // Intake recorded the delivery as due now, on the real clock.
  clock.now = new Date();
  return { shop: shopify.shop, fulfillmentId };
}

/** The worker's loop on Shopify's clock, on to each next attempt, for at most `limitMs`. */
async function workFor(limitMs: number, where: { shop: string }) {
  const worker = testWorker({ clock });
  const until = clock.now.getTime() + limitMs;
  while (clock.now.getTime() < until) {
    await worker.drain();
    const row = await prisma.delivery.findFirstOrThrow({ where });
    if (row.trackingPushedAt || !WORKING.includes(row.state)) return row;
    const next = row.nextAttemptAt?.getTime() ?? 0;
    worker.advance(
      Math.max(1_000, Math.min(next - clock.now.getTime(), until - clock.now.getTime())),
    );
  }
  return prisma.delivery.findFirstOrThrow({ where });
}

describe("an order with many line items", () => {
  it("is sent with all 250 of its line items on Shopify's standard budget", async () => {
    const { shop } = await fulfilLargeOrder("lines-250", 250);

    const delivery = await workFor(10 * 60_000, { shop });

    expect(delivery.state).toBe("created");
    expect(delivery.trackingPushedAt).toBeInstanceOf(Date);
    const request = JSON.parse(delivery.request!) as {
      packageDetails: { weight: number; value: number; description: string };
    };
    expect(request.packageDetails.weight).toBe(50);
    expect(request.packageDetails.description).toMatch(/\(250 pieces in all\)$/);
  }, 120_000);

  it("is sent with all 1,000 of its line items", async () => {
    const { shop } = await fulfilLargeOrder("lines-1000", 1_000);

    const delivery = await workFor(10 * 60_000, { shop });

    expect(delivery.state).toBe("created");
    expect(delivery.trackingPushedAt).toBeInstanceOf(Date);
    const request = JSON.parse(delivery.request!) as { packageDetails: { weight: number } };
    expect(request.packageDetails.weight).toBe(200);
  }, 240_000);

  it("reads each page of line items once, however often Shopify's budget stops the read", async () => {
    const { shop } = await fulfilLargeOrder("lines-once", 1_000);

    await workFor(10 * 60_000, { shop });

    const pages = shopify!.standIn.store.graphqlLog
      .filter(
        (c) =>
          c.outcome === "ok" && /^DeliveryFulfillment(LineItems)?$/.test(c.operationName ?? ""),
      )
      .map((c) => String(c.variables.after ?? "first"));
    expect(pages.length).toBeGreaterThan(1);
    expect(new Set(pages).size).toBe(pages.length);
  }, 240_000);

  it("keeps the line items read so far on the delivery while it waits for Shopify's budget", async () => {
    const { shop } = await fulfilLargeOrder("lines-kept", 1_000);

    // One attempt: as far as the bucket goes.
    await testWorker({ clock }).drain();

    const waiting = await prisma.delivery.findFirstOrThrow({ where: { shop } });
    expect(waiting).toMatchObject({ state: "pending", failures: 0 });
    const read = JSON.parse(waiting.lineItemsRead ?? "null") as {
      cursor: string;
      items: unknown[];
    } | null;
    expect(read?.items.length).toBeGreaterThan(200);
    expect(read?.cursor).toEqual(expect.any(String));
  }, 120_000);
});

describe("a delivery that waits for Shopify without failing", () => {
  it("says on its page, after 30 minutes, since when it waits for Shopify's budget", async () => {
    const { shop } = await fulfilLargeOrder("waits-long", 3);
    shopify!.standIn.api.throttleNext(1_000_000);

    const delivery = await workFor(LONG_WAIT_MS + 60_000, { shop });

    expect(delivery).toMatchObject({ state: "pending", failures: 0 });
    const firstRefused = shopify!.standIn.store.graphqlLog[0]!.at;
    const page = await deliveryPage(shop, delivery.id, clock.now);
    expect(page?.waitingLong).toEqual({ kind: "shopify_budget", since: firstRefused });
  }, 120_000);

  it("says nothing of it before 30 minutes", async () => {
    const { shop } = await fulfilLargeOrder("waits-short", 3);
    shopify!.standIn.api.throttleNext(1_000_000);

    const delivery = await workFor(LONG_WAIT_MS - 60_000, { shop });

    expect(delivery.state).toBe("pending");
    expect((await deliveryPage(shop, delivery.id, clock.now))?.waitingLong).toBeNull();
  }, 120_000);

  it("goes on by itself once Shopify answers again, and no longer says it waits", async () => {
    const { shop } = await fulfilLargeOrder("waits-then-goes", 3);
    shopify!.standIn.api.throttleNext(1_000_000);
    await workFor(LONG_WAIT_MS + 60_000, { shop });
    shopify!.standIn.api.throttleNext(0);

    const delivery = await workFor(5 * 60_000, { shop });

    expect(delivery.trackingPushedAt).toBeInstanceOf(Date);
    expect((await deliveryPage(shop, delivery.id, clock.now))?.waitingLong).toBeNull();
  }, 120_000);
});
