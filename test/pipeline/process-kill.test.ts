import { describe, expect, it } from "vitest";
import prisma from "../../app/db.server";
import { runDueDeliveries } from "../../app/pipeline/worker.server";
import { leaseMsFor } from "../../app/domain/lease-policy";
import { action as fulfillmentsCreate } from "../../app/routes/webhooks.fulfillments.create";
import { setUpCourierSandbox } from "../support/courier-sandbox";
import {
  fulfillmentPayload,
  programShopify,
  readyShop,
  testWorker,
  type FakeOrder,
} from "../support/pipeline";
import { processState, startChildWorker, until } from "../support/child-worker";
import { callRoute, shopDomain, webhookRequest } from "../support/shopify";

const shop = shopDomain("process-kill");
const sandbox = setUpCourierSandbox();
const order: FakeOrder = {
  fulfillmentNumber: 9301,
  orderNumber: 6301,
  city: "Salmiya",
  address1: "Block 10, Street 5, House 12",
  provinceCode: "KW-HA",
};

describe("a worker process killed while the courier creates its delivery", () => {
  it("leaves a row that the next worker reconciles into exactly one courier order", async () => {
    await readyShop(shop);
    programShopify([order]);
    await callRoute(
      fulfillmentsCreate,
      webhookRequest({ topic: "fulfillments/create", shop, payload: fulfillmentPayload(order) }),
    );
    // Built here; the child process only sends it.
    await runDueDeliveries(testWorker().deps, 20);
    expect((await prisma.delivery.findFirstOrThrow({ where: { shop } })).state).toBe("ready");
    // The courier creates the order, then holds its reply until the caller goes away.
    sandbox().faults.add({ endpoint: "createOrder", kind: "commitThenHang" });

    const worker = startChildWorker("child-worker");
    // The pid signalled is the node process that runs the worker, not a launcher in front of it.
    await worker.printed(`ready ${worker.pid}`);
    await until(
      () => sandbox().orders.size === 1,
      "the courier to create the order",
      20_000,
      worker.output,
    );
    worker.signal("SIGKILL");
    expect(await worker.exited).toBe("SIGKILL");
    expect(processState(worker.pid)).toBeNull();
    expect(worker.output()).not.toContain("done");

    // Nothing ran after the kill: the row is still the dead worker's, mid-create.
    const orphan = await prisma.delivery.findFirstOrThrow({ where: { shop } });
    expect(orphan).toMatchObject({ state: "creating", leaseOwner: "child-worker", attempts: 1 });

    // Another worker, once the dead one's lease has lapsed.
    const restarted = testWorker({ owner: "restarted-worker" });
    restarted.advance(leaseMsFor(60_000) + 60_000);
    await restarted.drain();

    const delivery = await prisma.delivery.findFirstOrThrow({
      where: { shop },
      include: { events: true },
    });
    const [courierOrderId] = [...sandbox().orders.keys()];
    expect(sandbox().orders.size).toBe(1);
    expect(sandbox().requestLog.filter((r) => r.endpoint === "createOrder")).toHaveLength(1);
    expect(delivery).toMatchObject({ state: "created", courierOrderId, attempts: 1 });
    expect(delivery.trackingPushedAt).toBeInstanceOf(Date);
    expect(delivery.events.map((e) => e.kind)).toEqual(
      expect.arrayContaining(["sending", "unknown", "reconciled", "tracking"]),
    );
  }, 150_000);
});
