import { afterEach, beforeEach, describe, expect, it } from "vitest";
import prisma from "../../app/db.server";
import {
  CHECK_EVERY_MS,
  runDueFulfillmentChecks,
  WEBHOOK_GRACE_MS,
} from "../../app/pipeline/fulfillment-check.server";
import { countRecoveredFulfillments } from "../../app/models/fulfillment-checks.server";
import { setUpCourierSandbox } from "../support/courier-sandbox";
import { testDatabaseName } from "../support/database";
import { testWorker } from "../support/pipeline";
import { startStandInShop, type StandInShop } from "../support/standin-shop";

// Fulfillments whose fulfillments/create webhook Shopify never sent (ADR 0013), against the Shopify
// stand-in with webhooks dropped, on a simulated clock. Runs on SQLite and on PostgreSQL (intake
// writes differ between them).

const database = testDatabaseName();
const clock = { now: new Date() };
setUpCourierSandbox({ clock: () => clock.now.getTime() });
let shopify: StandInShop | undefined;
let names = 0;
beforeEach(() => {
  clock.now = new Date();
});
afterEach(async () => {
  await shopify?.close();
  shopify = undefined;
});

const checks = () => runDueFulfillmentChecks(testWorker({ clock }).deps);
const later = (ms: number) => {
  clock.now = new Date(clock.now.getTime() + ms);
};

/** A stand-in shop whose check row exists (made at the first run, as a worker would). */
async function shopWithCheck() {
  shopify = await startStandInShop(`missed-${database.toLowerCase()}-${(names += 1)}`, clock);
  await checks();
  return shopify;
}

describe(`missed fulfillments webhooks (${database})`, () => {
  it("records and sends the fulfillments whose webhook was dropped", async () => {
    const { shop, standIn, fulfilNewOrder } = await shopWithCheck();
    standIn.webhooks.dropNext(10, "fulfillments/create");
    const made = Array.from({ length: 12 }, () => fulfilNewOrder());
    await standIn.webhooks.flush();
    expect(await prisma.delivery.count({ where: { shop } })).toBe(2);

    later(CHECK_EVERY_MS);
    const found = await checks();
    expect(found.get(shop)).toEqual({ seen: 12, recovered: 10 });
    const rows = await prisma.delivery.findMany({ where: { shop } });
    expect(rows.map((r) => r.fulfillmentId).sort()).toEqual(
      made.map((m) => m.fulfillmentId).sort(),
    );
    expect(rows.filter((r) => r.source === "recovered" && r.state === "pending")).toHaveLength(10);
    expect(await countRecoveredFulfillments(shop)).toBe(10);

    await testWorker({ clock }).settle();
    expect(await prisma.delivery.count({ where: { shop, trackingPushedAt: { not: null } } })).toBe(
      12,
    );
  });

  it("does not record a fulfillment twice when its webhook comes after the check", async () => {
    const { shop, standIn, fulfilNewOrder } = await shopWithCheck();
    standIn.webhooks.dropNext(3, "fulfillments/create");
    for (let i = 0; i < 3; i += 1) fulfilNewOrder();
    later(CHECK_EVERY_MS);
    expect((await checks()).get(shop)).toEqual({ seen: 3, recovered: 3 });
    await testWorker({ clock }).settle();

    for (const dropped of standIn.webhooks.of("fulfillments/create"))
      await standIn.webhooks.redeliver(dropped.webhookId);
    expect(
      standIn.webhooks.of("fulfillments/create", true).filter((d) => d.state === "delivered"),
    ).toHaveLength(3);
    await testWorker({ clock }).settle();
    expect(await prisma.delivery.count({ where: { shop } })).toBe(3);
    const tracked = shopify!.trackingWrites();
    expect([...tracked.values()]).toEqual([1, 1, 1]);
  });

  it("leaves a fulfillment younger than the grace to its webhook, and finds it next time", async () => {
    const { shop, standIn, fulfilNewOrder } = await shopWithCheck();
    later(CHECK_EVERY_MS - WEBHOOK_GRACE_MS / 2);
    standIn.webhooks.dropNext(1, "fulfillments/create");
    fulfilNewOrder();
    later(WEBHOOK_GRACE_MS / 2);
    expect((await checks()).get(shop)).toEqual({ seen: 0, recovered: 0 });
    expect(await prisma.delivery.count({ where: { shop } })).toBe(0);

    later(CHECK_EVERY_MS);
    expect((await checks()).get(shop)).toEqual({ seen: 1, recovered: 1 });
  });

  it("records nothing while automatic sending is off, nor after it is turned on", async () => {
    const { shop, standIn, fulfilNewOrder } = await shopWithCheck();
    await prisma.shopSettings.update({ where: { shop }, data: { autoSend: false } });
    standIn.webhooks.dropNext(2, "fulfillments/create");
    fulfilNewOrder();
    fulfilNewOrder();
    later(CHECK_EVERY_MS);
    await checks();
    await prisma.shopSettings.update({ where: { shop }, data: { autoSend: true } });
    later(CHECK_EVERY_MS);
    expect((await checks()).get(shop)).toEqual({ seen: 0, recovered: 0 });
    expect(await prisma.delivery.count({ where: { shop } })).toBe(0);
    expect(
      standIn.store.graphqlLog.filter((c) => c.operationName === "RecentFulfillments"),
    ).toHaveLength(1);
  });
});
