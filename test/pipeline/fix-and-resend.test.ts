import { describe, expect, it } from "vitest";
import prisma from "../../app/db.server";
import { MAX_STEP_FAILURES } from "../../app/domain/lease-policy";
import { loader as deliveryLoader } from "../../app/routes/app.deliveries.$id";
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
import {
  adminFetchRequest,
  callRoute,
  installShop,
  shopDomain,
  webhookRequest,
} from "../support/shopify";

/**
 * "Fix and send again" (app/routes/app.deliveries.$id_.fix.tsx): a delivery the courier refused,
 * or one waiting for its address or the merchant's decision, corrected and sent again once.
 */

const shop = shopDomain("fix");
const sandbox = setUpCourierSandbox();

/** Salmiya, placed with confidence; the courier refuses it once (a validation error). */
const order: FakeOrder = {
  fulfillmentNumber: 8101,
  orderNumber: 4101,
  city: "Salmiya",
  address1: "Block 4, Street 10, near the co-op, behind the mosque",
  provinceCode: "KW-HA",
};

async function receive(fake: FakeOrder) {
  await callRoute(
    fulfillmentsCreate,
    webhookRequest({ topic: "fulfillments/create", shop, payload: fulfillmentPayload(fake) }),
  );
}

async function rejectedDelivery() {
  const { directory } = await readyShop(shop);
  programShopify([order]);
  sandbox().faults.add({ endpoint: "createOrder", kind: "error", status: 400 });
  await receive(order);
  await testWorker().drain();
  const rejected = await prisma.delivery.findFirstOrThrow({ where: { shop } });
  expect(rejected.state).toBe("rejected");
  return { rejected, directory };
}

const creates = () => sandbox().requestLog.filter((r) => r.endpoint === "createOrder");

async function loadFix(id: string, as = shop) {
  return callRoute(fixLoader, await adminFetchRequest(as, `/app/deliveries/${id}/fix`), { id });
}

async function postFix(id: string, form: Record<string, string>, as = shop) {
  return callRoute(fixAction, await adminFetchRequest(as, `/app/deliveries/${id}/fix`, { form }), {
    id,
  });
}

function salmiyaOf(directory: Awaited<ReturnType<typeof readyShop>>["directory"]) {
  return directory.areas.find((a) => a.name === "السالميه" || a.name === "السالمية")!;
}

describe("fix and send again", () => {
  it("answers 404 for another shop's delivery, on the page and on sending", async () => {
    const { rejected, directory } = await rejectedDelivery();
    const other = shopDomain("fix-other");
    await installShop(other);
    expect((await loadFix(rejected.id, other)).status).toBe(404);
    const refused = await postFix(
      rejected.id,
      { areaId: String(salmiyaOf(directory).id), contactPhone: "99998888" },
      other,
    );
    expect(refused.status).toBe(404);
    expect((await loadFix(rejected.id)).status).toBe(200);
    expect((await prisma.delivery.findUniqueOrThrow({ where: { id: rejected.id } })).state).toBe(
      "rejected",
    );
  });

  it("sends a rejected delivery again with the corrected address and phone, created once", async () => {
    const { rejected, directory } = await rejectedDelivery();
    expect(creates()).toHaveLength(1);
    const salmiya = salmiyaOf(directory);
    const response = await postFix(rejected.id, {
      areaId: String(salmiya.id),
      block: "12",
      street: "Baghdad",
      house: "7",
      floor: "2",
      apartment: "5",
      paci: "12345678",
      contactPhone: "+965 9999 1234",
    });
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({ ok: true });
    // Queued to go to the courier again, through the one writer.
    const queued = await prisma.delivery.findUniqueOrThrow({
      where: { id: rejected.id },
      include: { events: { orderBy: { at: "asc" } } },
    });
    expect(queued.state).toBe("ready");
    expect(queued.events.map((e) => e.kind).slice(-2)).toEqual(["corrected", "ready"]);

    await testWorker().drain();
    const sent = await prisma.delivery.findUniqueOrThrow({ where: { id: rejected.id } });
    expect(sent.state).toBe("created");
    expect(creates()).toHaveLength(2);
    expect(sandbox().orders.size).toBe(1);
    const [created] = [...sandbox().orders.values()];
    expect(created!.request.deliveryAddress).toMatchObject({
      areaId: salmiya.id,
      block: "12",
      street: "Baghdad",
      house: "7",
      floor: "2",
      contactPhone: "99991234",
    });
    expect(created!.request.deliveryAddress.notes).toMatch(/12345678/);
  });

  it("refuses a phone that is not Kuwaiti, says what to fix and keeps what was typed", async () => {
    const { rejected, directory } = await rejectedDelivery();
    const typed = {
      areaId: String(salmiyaOf(directory).id),
      block: "12",
      street: "Baghdad",
      contactPhone: "12345",
    };
    const response = await postFix(rejected.id, typed);
    expect(response.status).toBe(400);
    const body = await response.json();
    expect(body.ok).toBe(false);
    expect(body.fieldErrors).toEqual({ contactPhone: "fix.errors.phoneInvalid" });
    expect(body.values).toMatchObject(typed);
    expect((await prisma.delivery.findUniqueOrThrow({ where: { id: rejected.id } })).state).toBe(
      "rejected",
    );
    expect(creates()).toHaveLength(1);
  });

  it("refuses a missing or unknown area and keeps what was typed", async () => {
    const { rejected } = await rejectedDelivery();
    const typed = { block: "3", street: "5", contactPhone: "99998888" };
    const missing = await postFix(rejected.id, typed);
    expect(missing.status).toBe(400);
    const body = await missing.json();
    expect(body.fieldErrors).toEqual({ areaId: "fix.errors.areaMissing" });
    expect(body.values).toMatchObject(typed);

    const unknown = await postFix(rejected.id, { ...typed, areaId: "987654" });
    expect(unknown.status).toBe(400);
    expect((await unknown.json()).fieldErrors).toEqual({ areaId: "fix.errors.areaUnknown" });
    expect(creates()).toHaveLength(1);
  });

  it("says before sending which spelling the answer is remembered for, and remembers it", async () => {
    const { directory } = await readyShop(shop);
    const unclear: FakeOrder = {
      ...order,
      city: "Kuwait",
      address1: "Mshairf blk 3 st 5 house 9",
      provinceCode: undefined,
    };
    programShopify([unclear]);
    await receive(unclear);
    await testWorker().drain();
    const waiting = await prisma.delivery.findFirstOrThrow({ where: { shop } });
    expect(waiting.state).toBe("needs_address");

    const page = await (await loadFix(waiting.id)).json();
    expect(page.fixable).toBe(true);
    expect(page.remember).toEqual({ possible: true, spelling: expect.stringMatching(/mshairf/i) });
    const mishref = directory.areas.find(
      (a) => a.name.includes("مشرف") && !a.name.includes("مبارك"),
    )!;
    expect(page.areas.find((a: { id: number }) => a.id === mishref.id)).toMatchObject({
      rememberable: true,
      en: "Mishref",
    });

    const response = await postFix(waiting.id, {
      areaId: String(mishref.id),
      block: "3",
      street: "5",
      house: "9",
      contactPhone: "99998888",
      remember: "",
    });
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({ ok: true, remembered: true });
    expect(await prisma.areaOverride.count({ where: { shop } })).toBe(1);
    await testWorker().drain();
    expect((await prisma.delivery.findFirstOrThrow({ where: { shop } })).state).toBe("created");
  });

  it("checks the courier's history first where the earlier outcome was unknown, and sends nothing twice", async () => {
    const { directory } = await readyShop(shop);
    // The courier takes this one (its block is given) and the reply is lost.
    const complete = { ...order, address1: "Block 1 Street 2 House 3" };
    programShopify([complete]);
    // The create lands at the courier but its reply is lost; history answers nothing readable
    // until the delivery waits for the merchant's decision.
    sandbox().faults.add({ endpoint: "createOrder", kind: "commitThenHang", hangMs: 2_000 });
    sandbox().faults.add({ endpoint: "history", kind: "malformedJson", times: 1_000 });
    await receive(complete);
    const worker = testWorker({ timeoutMs: 300 });
    for (let round = 0; round < 2 * MAX_STEP_FAILURES; round += 1) {
      await worker.drain();
      if ((await prisma.delivery.findFirstOrThrow({ where: { shop } })).state === "needs_review")
        break;
      worker.advance(5 * 60_000);
    }
    sandbox().faults.clear();
    const waiting = await prisma.delivery.findFirstOrThrow({ where: { shop } });
    expect(waiting.state).toBe("needs_review");
    expect((await (await loadFix(waiting.id)).json()).unknownOutcome).toBe(true);
    const before = sandbox().requestLog.length;

    const response = await postFix(waiting.id, {
      areaId: String(salmiyaOf(directory).id),
      block: "12",
      street: "2",
      contactPhone: "99998888",
    });
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({ ok: true, message: "fix.foundInHistory" });
    const asked = sandbox()
      .requestLog.slice(before)
      .map((r) => r.endpoint);
    expect(asked[0]).toBe("history");
    expect(asked).not.toContain("createOrder");
    const linked = await prisma.delivery.findFirstOrThrow({ where: { shop } });
    expect(linked.state).toBe("created");
    expect(linked.courierOrderId).toBe([...sandbox().orders.keys()][0]);
    await testWorker().drain();
    expect(creates()).toHaveLength(1);
    expect(sandbox().orders.size).toBe(1);
  });

  it("refuses a delivery that is no longer waiting, sending nothing", async () => {
    const { rejected, directory } = await rejectedDelivery();
    const corrected = {
      areaId: String(salmiyaOf(directory).id),
      block: "12",
      street: "2",
      contactPhone: "99998888",
    };
    await postFix(rejected.id, corrected);
    await testWorker().drain();
    expect((await prisma.delivery.findFirstOrThrow({ where: { shop } })).state).toBe("created");
    const again = await postFix(rejected.id, corrected);
    expect(again.status).toBe(400);
    expect((await again.json()).error).toBe("fix.errors.notFixable");
    expect(creates()).toHaveLength(2);
  });
});

describe("the delivery page of a rejected delivery", () => {
  it("says why in a sentence, quotes the courier and offers the fix", async () => {
    const { rejected } = await rejectedDelivery();
    const page = await (
      await callRoute(
        deliveryLoader,
        await adminFetchRequest(shop, `/app/deliveries/${rejected.id}`),
        { id: rejected.id },
      )
    ).json();
    expect(page.delivery).toMatchObject({ state: "rejected", fixable: true });
    expect(page.reason.sentence).toEqual({ key: "timeline.kind.rejected", params: {} });
    // The courier's own words, quoted as it sent them (the sandbox's generic refusal here).
    expect(page.reason.courierSaid).toMatch(/temporarily unavailable/);
    expect(page.address.area).toMatch(/سالمي/);
    expect(page.match.level).toBe("sure");
    expect(page.events.map((e: { sentence: { key: string } }) => e.sentence.key)).toEqual([
      "timeline.kind.received",
      "timeline.text.ready_prepaid",
      "timeline.kind.sending",
      "timeline.kind.rejected",
    ]);
    // No code or English sentence of the services outside the technical details.
    const visible = JSON.stringify({ ...page, technical: undefined });
    expect(visible).not.toMatch(/Request built|Fulfillment received/);
  });
});
