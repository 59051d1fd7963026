import { afterEach, beforeEach, describe, expect, it } from "vitest";
import prisma from "../../app/db.server";
import type { AdminGraphql } from "../../app/shopify/graphql";
import { setUpCourierSandbox } from "../support/courier-sandbox";
import { testWorker } from "../support/pipeline";
import { startStandInShop, type StandInShop } from "../support/standin-shop";

/**
 * The worker against the Shopify stand-in's real cost bucket (2,000 points, 100 restored a
 * second, as the Standard plan) and its tracking writes, on a simulated clock (issue 11).
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

const PARKED = ["needs_review", "needs_attention", "rejected"];

describe("Shopify's cost budget", () => {
  it("sends a 500-order burst with none waiting for the merchant for throttling", async () => {
    shopify = await startStandInShop("burst-500", clock);
    for (let i = 0; i < 500; i += 1) shopify.fulfilNewOrder();
    await shopify.standIn.webhooks.flush();
    const { shop, standIn } = shopify;
    expect(await prisma.delivery.count({ where: { shop, state: "pending" } })).toBe(500);

    // The worker's loop, a second of Shopify's time at a time, until every delivery is done.
    const worker = testWorker({ clock });
    for (let second = 0; second < 1_200; second += 1) {
      await worker.drain();
      if ((await prisma.delivery.count({ where: { shop, trackingPushedAt: null } })) === 0) break;
      worker.advance(1_000);
    }

    expect(await prisma.delivery.count({ where: { shop, state: { in: PARKED } } })).toBe(0);
    expect(await prisma.delivery.count({ where: { shop, trackingPushedAt: { not: null } } })).toBe(
      500,
    );
    // Every fulfillment's tracking written once, however often Shopify said to wait.
    expect([...shopify.trackingWrites().values()].every((n) => n === 1)).toBe(true);
    const throttled = standIn.store.graphqlLog.filter((c) => c.outcome === "throttled").length;
    const requested = standIn.store.graphqlLog
      .filter((c) => c.operationName === "DeliveryFulfillment")
      .map((c) => c.requestedQueryCost ?? 0);
    expect(Math.max(...requested)).toBeLessThan(200);
    expect(throttled).toBeLessThan(standIn.store.graphqlLog.length / 10);
    // About 1,000 Admin calls over HTTP and 500 creates: 100 s on a loaded two-core machine, and
    // up to three times that alongside the rest of the suite.
  }, 600_000);
});

describe("tracking written once", () => {
  it("does not write the tracking again after a crash between Shopify's answer and the commit", async () => {
    shopify = await startStandInShop("tracking-crash", clock);
    const { shop, standIn } = shopify;
    const { fulfillmentId } = shopify.fulfilNewOrder();
    await standIn.webhooks.flush();

    // The first worker's process dies the moment Shopify has taken the tracking number: the
    // reply never reaches it, and nothing after it runs.
    const first = testWorker({ clock, owner: "worker-that-dies" });
    let written!: () => void;
    const trackingWritten = new Promise<void>((resolve) => (written = resolve));
    const adminFor = first.deps.adminFor;
    first.deps.adminFor = async (s): Promise<AdminGraphql> => {
      const admin = await adminFor(s);
      return {
        async graphql(query, options) {
          const response = await admin.graphql(query, options);
          if (query.includes("DeliveryTrackingUpdate")) {
            written();
            return new Promise<Response>(() => undefined);
          }
          return response;
        },
      };
    };
    void first.settle();
    await trackingWritten;
    expect(shopify.trackingWrites().get(fulfillmentId)).toBe(1);
    const held = await prisma.delivery.findFirstOrThrow({ where: { shop } });
    expect(held).toMatchObject({ state: "created", trackingPushedAt: null });

    // Another worker takes the delivery once the dead one's lease has lapsed.
    clock.now = new Date(held.leaseExpiresAt!.getTime() + 1_000);
    await testWorker({ clock, owner: "worker-after" }).drain();

    expect(shopify.trackingWrites().get(fulfillmentId)).toBe(1);
    const done = await prisma.delivery.findFirstOrThrow({
      where: { shop },
      include: { events: { orderBy: { at: "asc" } } },
    });
    expect(done.trackingPushedAt).not.toBeNull();
    expect(done.events.at(-1)?.message).toMatch(/already on the Shopify fulfillment/);
  });
});
