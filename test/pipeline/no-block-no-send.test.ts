import { describe, expect, it } from "vitest";
import prisma from "../../app/db.server";
import {
  action as reviewAction,
  loader as reviewLoader,
} from "../../app/routes/app.address-review";
import { action as fixAction, loader as fixLoader } from "../../app/routes/app.deliveries.$id_.fix";
import { action as fulfillmentsCreate } from "../../app/routes/webhooks.fulfillments.create";
import { setUpCourierSandbox } from "../support/courier-sandbox";
import {
  fulfillmentPayload,
  programShopify,
  readyShop,
  testWorker,
  type FakeOrder,
} from "../support/pipeline";
import { adminFetchRequest, callRoute, shopDomain, webhookRequest } from "../support/shopify";

/**
 * No block, no send (ADR 0052): an address whose area is placed but which lacks what the courier
 * needs (the block, and a street, house or building) waits for the merchant, who is told what is
 * missing and supplies it on the address review or "Fix and send again".
 */

const shop = shopDomain("no-block");
const sandbox = setUpCourierSandbox();

/** The tester's address (issue 24): the area is sure, nothing else is there. */
const landmarksOnly: FakeOrder = {
  fulfillmentNumber: 8801,
  orderNumber: 4801,
  city: "Sabah Al Salem",
  address1: "near the co-op, behind the mosque",
  provinceCode: "KW-MU",
};

async function receive(order: FakeOrder) {
  await callRoute(
    fulfillmentsCreate,
    webhookRequest({ topic: "fulfillments/create", shop, payload: fulfillmentPayload(order) }),
  );
}

async function waitingDelivery(order = landmarksOnly) {
  const { directory } = await readyShop(shop);
  programShopify([order]);
  await receive(order);
  await testWorker().drain();
  const delivery = await prisma.delivery.findFirstOrThrow({
    where: { shop, orderId: `gid://shopify/Order/${order.orderNumber}` },
    include: { events: { orderBy: { at: "asc" } } },
  });
  return { delivery, directory };
}

async function reviewQueue() {
  const response = await callRoute(
    reviewLoader,
    await adminFetchRequest(shop, "/app/address-review"),
  );
  return (await response.json()).queue as {
    id: string;
    reason: string | null;
    missing: string | null;
    courier: { governanceId: number; areaId: number } | null;
  }[];
}

async function placeOnReview(form: Record<string, string>) {
  return callRoute(reviewAction, await adminFetchRequest(shop, "/app/address-review", { form }));
}

describe("an address without a block", () => {
  it("waits for the merchant with the reason that says what is missing, and nothing is sent", async () => {
    const { delivery } = await waitingDelivery();
    expect(delivery.state).toBe("needs_address");
    expect(delivery.stateReason).toBe(
      "The address has no block number and no street, house or building number, which the courier needs: add them, then send.",
    );
    const last = delivery.events.at(-1)!;
    expect(last.kind).toBe("needs_address");
    expect(JSON.parse(last.data!).text.key).toBe("address_missing_block_and_street_or_house");
    expect(sandbox().requestLog.filter((r) => r.endpoint?.startsWith("create"))).toEqual([]);
  });

  it("is listed for review with its area placed and what is missing", async () => {
    const { delivery } = await waitingDelivery();
    const [item] = await reviewQueue();
    expect(item).toMatchObject({
      id: delivery.id,
      missing: "block_and_street_or_house",
      // Said once: the missing parts stand for the reason.
      reason: null,
    });
    expect(item!.courier).not.toBeNull();
  });

  it("is sent once the merchant supplies the block and the house on the review page", async () => {
    await waitingDelivery();
    const [item] = await reviewQueue();
    const response = await placeOnReview({
      deliveryId: item!.id,
      governanceId: String(item!.courier!.governanceId),
      areaId: String(item!.courier!.areaId),
      block: "4",
      house: "12",
    });
    expect(response.status).toBe(200);
    await testWorker().drain();
    expect((await prisma.delivery.findFirstOrThrow({ where: { shop } })).state).toBe("created");
    const [created] = [...sandbox().orders.values()];
    expect(created!.request.deliveryAddress).toMatchObject({ block: "4", house: "12" });
  });

  it("is refused on the review page without a block, naming the block, and keeps waiting", async () => {
    await waitingDelivery();
    const [item] = await reviewQueue();
    const response = await placeOnReview({
      deliveryId: item!.id,
      governanceId: String(item!.courier!.governanceId),
      areaId: String(item!.courier!.areaId),
      house: "12",
    });
    expect(response.status).toBe(400);
    expect((await response.json()).error).toEqual({ code: "address_missing_block", params: {} });
    expect((await prisma.delivery.findFirstOrThrow({ where: { shop } })).state).toBe(
      "needs_address",
    );
    expect(sandbox().orders.size).toBe(0);
  });

  it("is refused on Fix and send again without a street, house or building, marking the field", async () => {
    const { delivery } = await waitingDelivery();
    const page = await (
      await callRoute(
        fixLoader,
        await adminFetchRequest(shop, `/app/deliveries/${delivery.id}/fix`),
        { id: delivery.id },
      )
    ).json();
    expect(page.missing).toBe("block_and_street_or_house");
    const response = await callRoute(
      fixAction,
      await adminFetchRequest(shop, `/app/deliveries/${delivery.id}/fix`, {
        form: { areaId: page.values.areaId, block: "4", contactPhone: "99991234" },
      }),
      { id: delivery.id },
    );
    expect(response.status).toBe(400);
    expect((await response.json()).fieldErrors).toEqual({
      street: "fix.errors.streetOrHouseMissing",
    });
    expect(sandbox().orders.size).toBe(0);
  });

  it("is not given a block by an answer remembered for its spelling", async () => {
    // The merchant placed "Mshairf" once, with its block, and asked to remember the spelling.
    const first: FakeOrder = {
      fulfillmentNumber: 8811,
      orderNumber: 4811,
      city: "Kuwait",
      address1: "Mshairf blk 3 st 5 house 9",
    };
    const second: FakeOrder = {
      fulfillmentNumber: 8812,
      orderNumber: 4812,
      city: "Kuwait",
      address1: "Mshairf, near the mosque",
    };
    const { directory } = await readyShop(shop);
    programShopify([first, second]);
    await receive(first);
    await testWorker().drain();
    const mishref = directory.areas.find(
      (a) => a.name.includes("مشرف") && !a.name.includes("مبارك"),
    )!;
    const [item] = await reviewQueue();
    const placed = await placeOnReview({
      deliveryId: item!.id,
      governanceId: String(mishref.governanceId),
      areaId: String(mishref.id),
      block: "3",
      street: "5",
      house: "9",
      remember: "on",
    });
    expect(placed.status).toBe(200);

    await receive(second);
    await testWorker().drain();
    const waiting = await prisma.delivery.findFirstOrThrow({
      where: { shop, orderId: "gid://shopify/Order/4812" },
    });
    expect(waiting.state).toBe("needs_address");
    expect(waiting.stateReason).toMatch(/^The address has no block number/);
    expect(JSON.parse(waiting.addressMatch!)).toMatchObject({
      area: "Mishref",
      parts: { block: null, street: null, house: null },
    });
    expect(sandbox().orders.size).toBe(1);
  });
});
