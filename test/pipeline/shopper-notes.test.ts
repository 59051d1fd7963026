import { describe, expect, it } from "vitest";
import prisma from "../../app/db.server";
import { notesCarryReference } from "../../app/domain/request";
import { NOTES_LIMIT } from "../../app/domain/courier-notes";
import { labelDataFromDelivery } from "../../app/labels";
import { getDelivery } from "../../app/models/deliveries.server";
import { action as fulfillmentsCreate } from "../../app/routes/webhooks.fulfillments.create";
import { SANDBOX_KEY, setUpCourierSandbox } from "../support/courier-sandbox";
import {
  fulfillmentPayload,
  programShopify,
  readyShop,
  testWorker,
  type FakeOrder,
} from "../support/pipeline";
import { callRoute, shopDomain, webhookRequest } from "../support/shopify";

/**
 * The shopper's delivery instructions reach the courier and the label (ADR 0052): the order's
 * note in the courier's notes after the delivery's reference, which history still finds.
 */

const shop = shopDomain("shopper-notes");
const sandbox = setUpCourierSandbox();

const order: FakeOrder = {
  fulfillmentNumber: 8901,
  orderNumber: 4901,
  city: "Salmiya",
  address1: "Block 10, Street 5, House 12",
  address2: "white gate, next to the mosque",
  provinceCode: "KW-HA",
};

async function sent(fake: FakeOrder) {
  await readyShop(shop);
  programShopify([fake]);
  await callRoute(
    fulfillmentsCreate,
    webhookRequest({ topic: "fulfillments/create", shop, payload: fulfillmentPayload(fake) }),
  );
  await testWorker().drain();
  const delivery = await prisma.delivery.findFirstOrThrow({ where: { shop } });
  expect(delivery.state).toBe("created");
  const [courierOrder] = [...sandbox().orders.values()];
  return { delivery, request: courierOrder!.request };
}

describe("the shopper's note", () => {
  it("reaches the courier's notes after the reference, with the address lines in the address's", async () => {
    // The courier's notes held only the reference and the order's name (issue 24).
    const { delivery, request } = await sent({ ...order, note: "Please call before delivery" });
    expect(request.notes).toBe(
      `${delivery.reference} · Shopify order #4901 · Please call before delivery`,
    );
    expect(request.deliveryAddress.notes).toContain("white gate, next to the mosque");
  });

  it("is cut to the courier's limit, cleaned, and leaves the reference findable in history", async () => {
    const note = `\u202EDo not knock\u202C\r\n${"اترك الطرد عند الحارس ".repeat(200)}`;
    const { delivery, request } = await sent({ ...order, note });
    expect(request.notes.length).toBeLessThanOrEqual(NOTES_LIMIT);
    expect(request.notes).toMatch(/ · Do not knock اترك الطرد/);
    expect(notesCarryReference(request.notes, delivery.reference)).toBe(true);
    const history = await fetch(
      `${sandbox().url}/api/orders/customer/history?search=${encodeURIComponent(delivery.reference)}`,
      { headers: { Authorization: `ApiKey ${SANDBOX_KEY}` } },
    );
    expect((await history.json()).results).toHaveLength(1);
  });

  it("is printed on the label", async () => {
    const { delivery } = await sent({ ...order, note: "Leave it with the guard" });
    const row = await getDelivery(shop, delivery.id);
    const label = labelDataFromDelivery(row!, null, { name: "Shop" });
    expect(label.customerNote).toBe("Leave it with the guard");
  });
});
