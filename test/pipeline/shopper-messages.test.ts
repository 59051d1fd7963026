import { afterEach, beforeEach, describe, expect, it } from "vitest";
import prisma from "../../app/db.server";
import { transition } from "../../app/models/delivery-state/transition.server";
import {
  loadWhatsAppSender,
  recordWebhookVerified,
  saveWhatsAppConnection,
  saveWhatsAppPreferences,
} from "../../app/models/whatsapp-account.server";
import { isOptedOut } from "../../app/models/whatsapp-opt-outs.server";
import { action as whatsappCallback } from "../../app/routes/whatsapp.webhooks.$token";
import { callRoute } from "../support/shopify";
import { DEFAULT_TEMPLATE_NAMES, kuwaitDayStart } from "../../app/domain/shopper-message";
import { unauthenticated } from "../../app/shopify.server";
import { runDueAsks } from "../../app/shopper/ask-loop.server";
import {
  runDueMessages,
  type MessageLoopDependencies,
  type ReadySender,
} from "../../app/shopper/message-loop.server";
import { startWhatsAppStandIn, type WhatsAppStandIn } from "../../sandbox/whatsapp";
import { setUpCourierSandbox } from "../support/courier-sandbox";
import { startStandInShop, type StandInShop } from "../support/standin-shop";

/**
 * WhatsApp messages to the shopper (issue 27): owed by the ask in its own transaction, sent by
 * the message loop to the WhatsApp stand-in over HTTP, one copy each whatever fails.
 */
setUpCourierSandbox();
let shop: StandInShop | undefined;
let whatsapp: WhatsAppStandIn;
const TOKEN = "stand-in-token";
const HOUR = 3_600_000;

beforeEach(async () => {
  whatsapp = await startWhatsAppStandIn({ accessToken: TOKEN, appSecret: "app-secret" });
});
afterEach(async () => {
  await shop?.close();
  shop = undefined;
  await whatsapp.close();
});

function sender(overrides: Partial<ReadySender> = {}): ReadySender {
  return {
    status: "ready",
    phoneNumberId: "106540352242922",
    accessToken: TOKEN,
    templates: DEFAULT_TEMPLATE_NAMES,
    // No quiet hours unless a test sets them: the tests run at any hour.
    quiet: { from: 0, until: 0 },
    dailyCapPerOrder: 2,
    webhookVerified: true,
    ...overrides,
  };
}

function loopDeps(
  clock: { now: Date },
  overrides: Partial<MessageLoopDependencies> & { sender?: ReadySender } = {},
  optedOut = new Set<string>(),
): MessageLoopDependencies {
  return {
    owner: "test-messages",
    senderFor: async () => overrides.sender ?? sender(),
    isOptedOut: async (_shop, phone) => optedOut.has(phone),
    apiUrl: whatsapp.url,
    now: () => clock.now,
    ...overrides,
  };
}

/** A shop with WhatsApp on, and an order whose address the app must ask about. */
async function askedOrder(name: string, phone: string | null = "+965 5000 1234", locale = "ar") {
  shop = await startStandInShop(name, { now: new Date() });
  await prisma.whatsAppAccount.create({
    data: {
      shop: shop.shop,
      phoneNumberId: "106540352242922",
      accessTokenSealed: "sealed-in-the-real-app",
      appSecretSealed: "sealed-in-the-real-app",
      webhookToken: `hook-${name}`,
      verifyToken: "verify",
      enabled: true,
    },
  });
  const { store, webhooks } = shop.standIn;
  const order = store.addOrder({
    shippingAddress: {
      address1: "near the co-op, behind the mosque",
      address2: null,
      city: "Salmiya",
      phone,
    },
    phone,
    customerLocale: locale,
    locationId: shop.locationId,
  });
  await webhooks.flush();
  await runDueAsks({
    owner: "test-asks",
    adminFor: async (s) => (await unauthenticated.admin(s)).admin,
  });
  const ask = await prisma.shopperAsk.findFirstOrThrow({ where: { shop: shop.shop } });
  expect(ask.state).toBe("asked");
  return { order, ask, shop: shop.shop };
}

const messages = (shopName: string) =>
  prisma.shopperMessage.findMany({ where: { shop: shopName }, orderBy: { createdAt: "asc" } });

describe("the WhatsApp message of an ask", () => {
  it("is owed once with the ask and sent once, in the customer's language, with their link", async () => {
    const { ask, shop: name } = await askedOrder("wa-once");
    const owed = await messages(name);
    expect(owed).toHaveLength(1);
    expect(owed[0]).toMatchObject({
      purpose: "address_check",
      language: "ar",
      state: "queued",
      toPhone: "96550001234",
    });

    const clock = { now: new Date() };
    expect(await runDueMessages(loopDeps(clock))).toBe(1);
    // Passes again, as every few seconds: nothing more goes.
    await runDueMessages(loopDeps(clock));
    await runDueMessages(loopDeps(clock));

    expect(whatsapp.messages).toHaveLength(1);
    const sent = whatsapp.messages[0]!;
    expect(sent).toMatchObject({
      to: "96550001234",
      template: { name: "address_check", language: "ar", buttonUrlParameter: ask.token },
      callbackData: owed[0]!.id,
    });
    expect(sent.template.bodyParameters[1]).toBe(ask.orderName);
    expect(whatsapp.tap(sent.id)).toBe(`https://shop.example/s/${ask.token}`);
    const [row] = await messages(name);
    expect(row).toMatchObject({ state: "sent", wamid: sent.id, toPhone: null, attempts: 1 });
  });

  it("records why nothing went to a landline, which has no WhatsApp", async () => {
    const { shop: name } = await askedOrder("wa-landline", "+965 2245 0000");
    const [row] = await messages(name);
    expect(row).toMatchObject({ state: "skipped", skipReason: "no_mobile", toPhone: null });
    await runDueMessages(loopDeps({ now: new Date() }));
    expect(whatsapp.messages).toHaveLength(0);
  });

  it("waits for the morning in Kuwait when asked at night", async () => {
    const { shop: name } = await askedOrder("wa-night");
    // 23:30 in Kuwait, tomorrow (so the row is due): quiet from 21:00 to 09:00.
    const night = new Date(kuwaitDayStart(new Date()).getTime() + 24 * HOUR + 23.5 * HOUR);
    const clock = { now: night };
    const quiet = sender({ quiet: { from: 21 * 60, until: 9 * 60 } });
    await runDueMessages(loopDeps(clock, { sender: quiet }));
    expect(whatsapp.messages).toHaveLength(0);
    const [waiting] = await messages(name);
    const morning = new Date(kuwaitDayStart(night).getTime() + 33 * HOUR);
    expect(waiting).toMatchObject({ state: "queued", nextAttemptAt: morning, notBefore: morning });

    clock.now = new Date(morning.getTime() - 60_000);
    expect(await runDueMessages(loopDeps(clock, { sender: quiet }))).toBe(0);
    clock.now = morning;
    await runDueMessages(loopDeps(clock, { sender: quiet }));
    expect(whatsapp.messages).toHaveLength(1);
  });

  it("keeps to the daily cap per order: the next message waits for the next Kuwaiti day", async () => {
    const { ask, order, shop: name } = await askedOrder("wa-cap");
    const clock = { now: new Date() };
    const capped = sender({ dailyCapPerOrder: 1 });
    await runDueMessages(loopDeps(clock, { sender: capped }));
    // A second question the same day (the row as a failed attempt would owe it).
    await prisma.shopperMessage.create({
      data: {
        shop: name,
        orderId: ask.orderId,
        orderName: ask.orderName,
        askId: ask.id,
        purpose: "failed_attempt",
        dedupeKey: `second:${order.id}`,
        language: "en",
        state: "queued",
        toPhone: "96550001234",
        notBefore: clock.now,
        nextAttemptAt: clock.now,
      },
    });
    await runDueMessages(loopDeps(clock, { sender: capped }));
    expect(whatsapp.messages).toHaveLength(1);
    const second = await prisma.shopperMessage.findFirstOrThrow({
      where: { shop: name, purpose: "failed_attempt" },
    });
    const tomorrow = new Date(kuwaitDayStart(clock.now).getTime() + 24 * HOUR);
    expect(second.state).toBe("queued");
    expect(second.nextAttemptAt).toEqual(tomorrow);
    clock.now = tomorrow;
    await runDueMessages(loopDeps(clock, { sender: capped }));
    expect(whatsapp.messages).toHaveLength(2);
  });

  it("sends nothing to a shopper who opted out, nor after the question was answered", async () => {
    const { shop: name } = await askedOrder("wa-optout");
    await runDueMessages(loopDeps({ now: new Date() }, {}, new Set(["96550001234"])));
    expect(whatsapp.messages).toHaveLength(0);
    expect((await messages(name))[0]).toMatchObject({ state: "skipped", skipReason: "opted_out" });

    const second = await askedOrder("wa-answered");
    await prisma.shopperAsk.update({ where: { id: second.ask.id }, data: { state: "answered" } });
    await runDueMessages(loopDeps({ now: new Date() }));
    expect(whatsapp.messages).toHaveLength(0);
    expect((await messages(second.shop))[0]).toMatchObject({
      state: "skipped",
      skipReason: "question_closed",
    });
  });
});

describe("one copy whatever fails", () => {
  it("sends again after a 429 or a refused connection, at the time WhatsApp gives", async () => {
    const { shop: name } = await askedOrder("wa-429");
    const clock = { now: new Date() };
    whatsapp.injectFault({ kind: "rate-limit", retryAfterSeconds: 30 });
    await runDueMessages(loopDeps(clock));
    const [waiting] = await messages(name);
    expect(waiting).toMatchObject({ state: "queued", sentAt: null, attempts: 1 });
    expect(waiting!.nextAttemptAt).toEqual(new Date(clock.now.getTime() + 30_000));
    clock.now = new Date(clock.now.getTime() + 30_000);
    await runDueMessages(loopDeps(clock));
    expect(whatsapp.messages).toHaveLength(1);
    expect((await messages(name))[0]).toMatchObject({ state: "sent", attempts: 2 });
  });

  it("does not send a second copy when WhatsApp took the message but its answer was lost", async () => {
    const { shop: name } = await askedOrder("wa-lost-answer");
    const clock = { now: new Date() };
    whatsapp.injectFault({ kind: "server-error-after-send" });
    await runDueMessages(loopDeps(clock, { sender: sender({ webhookVerified: false }) }));
    expect(whatsapp.messages).toHaveLength(1);
    const [row] = await messages(name);
    expect(row!.state).toBe("unconfirmed");
    // Past the wait, with no callback address verified: not sent again, and the merchant told.
    clock.now = new Date(clock.now.getTime() + 11 * 60_000);
    await runDueMessages(loopDeps(clock, { sender: sender({ webhookVerified: false }) }));
    expect(whatsapp.messages).toHaveLength(1);
    expect((await messages(name))[0]).toMatchObject({
      state: "failed",
      lastError: expect.stringContaining("not sent again"),
    });
  });

  it("sends again a message whose send got a 5xx before it went, once no callback came", async () => {
    const { shop: name } = await askedOrder("wa-5xx");
    const clock = { now: new Date() };
    whatsapp.injectFault({ kind: "server-error", status: 503 });
    await runDueMessages(loopDeps(clock));
    expect(whatsapp.messages).toHaveLength(0);
    expect((await messages(name))[0]!.state).toBe("unconfirmed");
    // Within the wait nothing is tried…
    clock.now = new Date(clock.now.getTime() + 5 * 60_000);
    await runDueMessages(loopDeps(clock));
    expect(whatsapp.messages).toHaveLength(0);
    // …after it, with the callback address verified and no callback, it did not go: sent now.
    clock.now = new Date(clock.now.getTime() + 6 * 60_000);
    await runDueMessages(loopDeps(clock));
    expect(whatsapp.messages).toHaveLength(1);
    expect((await messages(name))[0]).toMatchObject({ state: "sent", attempts: 2 });
  });

  it("takes a send a stopped worker left half-done as unconfirmed, never sent again at once", async () => {
    const { shop: name } = await askedOrder("wa-crash");
    const clock = { now: new Date() };
    // The worker marked it and stopped before hearing back (its lease ran out).
    const [row] = await messages(name);
    await prisma.shopperMessage.update({
      where: { id: row!.id },
      data: {
        state: "sending",
        sentAt: clock.now,
        attempts: 1,
        leaseOwner: "dead-worker",
        leaseExpiresAt: new Date(clock.now.getTime() - 1),
        nextAttemptAt: clock.now,
      },
    });
    await runDueMessages(loopDeps(clock));
    expect(whatsapp.messages).toHaveLength(0);
    expect((await messages(name))[0]!.state).toBe("unconfirmed");
  });

  it("gives up a message WhatsApp refuses for good, with its reason", async () => {
    const { shop: name } = await askedOrder("wa-template");
    await runDueMessages(
      loopDeps(
        { now: new Date() },
        {
          sender: sender({
            templates: {
              ...DEFAULT_TEMPLATE_NAMES,
              address_check: { ar: "no_such_template", en: "no_such_template" },
            },
          }),
        },
      ),
    );
    expect(whatsapp.messages).toHaveLength(0);
    expect((await messages(name))[0]).toMatchObject({
      state: "failed",
      toPhone: null,
      lastError: expect.stringMatching(/template/i),
    });
  });
});

describe("out for delivery", () => {
  it("tells the shopper once per delivery that it comes today, with the tracking link", async () => {
    const { shop: name } = await askedOrder("wa-out");
    await prisma.shopperMessage.deleteMany({ where: { shop: name } });
    await prisma.delivery.create({
      data: {
        id: "wa-out-1",
        shop: name,
        orderId: "gid://shopify/Order/4401",
        orderName: "#1044",
        fulfillmentId: "gid://shopify/Fulfillment/wa-out-1",
        source: "webhook",
        state: "in_transit",
        environment: "sandbox",
        reference: "SHPFY-wa-out-1",
        courierOrderNumber: "KW100001",
        trackingToken: "0123456789abcdef0123456789abcdef",
        customerLanguage: "en",
      },
    });
    // The list's columns are read from the request by the database; the phone set as the row has it.
    await prisma.delivery.update({
      where: { id: "wa-out-1" },
      data: { customerPhone: "+96566001122" },
    });
    const move = (from: "in_transit" | "out_for_delivery" | "failed", to: typeof from) =>
      transition({
        shop: name,
        id: "wa-out-1",
        from,
        to,
        event: { kind: "courier_status", message: to },
      });
    await move("in_transit", "out_for_delivery");
    // A failed attempt and a second round out: still one "out for delivery" for the delivery.
    // The failed attempt owes its second chance's message (issue 27, item 5), closed unsent
    // once the courier is out again.
    await move("out_for_delivery", "failed");
    await move("failed", "out_for_delivery");
    const owed = await messages(name);
    expect(owed.map((m) => [m.purpose, m.deliveryId, m.toPhone])).toEqual([
      ["out_for_delivery", "wa-out-1", "96566001122"],
      ["failed_attempt", "wa-out-1", "96566001122"],
    ]);
    await runDueMessages(loopDeps({ now: new Date() }));
    expect(whatsapp.messages).toHaveLength(1);
    expect(whatsapp.messages[0]!.template).toMatchObject({
      name: "out_for_delivery",
      language: "en",
      buttonUrlParameter: "0123456789abcdef0123456789abcdef",
      bodyParameters: [expect.any(String), "#1044"],
    });
  });
});

describe("the whole path: the sealed account, the loop, Meta's callbacks through the route", () => {
  it("confirms a send whose answer was lost by its callback, and never sends it again", async () => {
    const { shop: name } = await askedOrder("wa-e2e");
    await saveWhatsAppConnection({
      shop: name,
      phoneNumberId: "106540352242922",
      accessToken: TOKEN,
      appSecret: "app-secret",
      at: new Date(),
    });
    await recordWebhookVerified(name, new Date());
    // The test runs at any hour: no quiet hours (their default, 21:00 to 09:00, is tested above).
    await saveWhatsAppPreferences(name, {
      templates: DEFAULT_TEMPLATE_NAMES,
      quiet: { from: 0, until: 0 },
      dailyCapPerOrder: 2,
    });
    const account = await prisma.whatsAppAccount.findUniqueOrThrow({ where: { shop: name } });
    const clock = { now: new Date() };
    const deps = loopDeps(clock, { senderFor: loadWhatsAppSender, isOptedOut });

    whatsapp.injectFault({ kind: "server-error-after-send" });
    await runDueMessages(deps);
    expect(whatsapp.messages).toHaveLength(1);
    expect((await messages(name))[0]!.state).toBe("unconfirmed");

    // Meta's callbacks for it reach the app's route, signed with the app secret.
    await whatsapp.flushCallbacks();
    for (const callback of whatsapp.callbacks) {
      const response = await callRoute(
        whatsappCallback,
        new Request(`https://app.example/whatsapp/webhooks/${account.webhookToken}`, {
          method: "POST",
          headers: { "x-hub-signature-256": callback.signature },
          body: callback.body,
        }),
        { token: account.webhookToken },
      );
      expect(response.status).toBe(200);
    }
    const [confirmed] = await messages(name);
    expect(confirmed).toMatchObject({ state: "read", wamid: whatsapp.messages[0]!.id });

    // Past the wait: nothing left to send, and nothing sent.
    clock.now = new Date(clock.now.getTime() + 11 * 60_000);
    expect(await runDueMessages(deps)).toBe(0);
    expect(whatsapp.messages).toHaveLength(1);
  });
});
