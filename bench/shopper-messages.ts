/**
 * bench:shopper, part 1b (issue 27): the WhatsApp messages, end to end on the built app, counted
 * from the WhatsApp stand-in's own record of what reached a shopper's phone.
 *
 * 1. Quiet hours: the merchant's quiet hours set to cover the next minute or two in Kuwait time;
 *    orders asked about meanwhile; nothing may arrive before they end, everything after.
 * 2. Faults: orders asked about while WhatsApp answers 5xx before sending, 429 with Retry-After,
 *    takes a message and loses the answer (5xx or no answer at all), and the server is killed
 *    (SIGKILL) while a send is in flight and started again; every orders/create webhook delivered
 *    twice. Then every status callback replayed, and forged ones posted.
 * 3. The second chance: parcels the courier fails to deliver; the time from the courier's failed
 *    status to the shopper's message, and shoppers answering from the message's link.
 */
import { type StatusCallback } from "../sandbox/whatsapp";
import { HUMAN_USER_AGENT } from "../test/support/browser";
import { BENCH_SHOP as SHOP, startShopperStack, type ShopperStack } from "./support/shopper-stack";
import { percentile, round, until } from "./support/scratch";

const ACCESS_TOKEN = "bench-whatsapp-token";
const APP_SECRET = "bench-whatsapp-app-secret";
const PHONE_NUMBER_ID = "106540352242922";
/** How long a send whose answer was lost waits for its callback in this run (10 min in use). */
const CONFIRM_WAIT_MS = 5_000;

export interface MessageFigures {
  messagesOwed: number;
  messagesSent: number;
  duplicateMessages: number;
  messagesInQuietHours: number;
  quietHoursHeld: number;
  faultsInjected: number;
  serverKills: number;
  ordersWebhookReplays: number;
  statusCallbacks: number;
  statusCallbacksVerified: number;
  statusCallbacksReplayed: number;
  forgedCallbacks: number;
  forgedRefused: number;
  rescuesOpened: number;
  rescueMessages: number;
  rescuesAnswered: number;
  failedToMessageP50Ms: number;
  failedToMessageP95Ms: number;
  messageSeconds: number;
}

type Log = (line: string) => void;

const DOUBTFUL = [
  { city: "Salmiya", address1: "near the co-op, behind the mosque", provinceCode: "KW-HA" },
  { city: "Salmiya", address1: "Street 5, House 12", provinceCode: "KW-HA" },
  { city: "الجابرية", address1: "قرب الجمعية", provinceCode: "KW-HA" },
];
const CLEAR = { city: "Salmiya", address1: "Block 10, Street 5, House 12", provinceCode: "KW-HA" };

let phoneSeq = 0;
/**
 * Orders whose shoppers each have their own mobile, so messages are told apart by number; every
 * `doubtfulEvery`-th one (none for 0) with an address the app must ask about.
 */
function addOrders(stack: ShopperStack, count: number, doubtfulEvery = 1, cod = true) {
  const ids: number[] = [];
  for (let i = 0; i < count; i += 1) {
    const phone = `+965 6${String(1_000_000 + phoneSeq++).slice(-7)}`;
    const doubtful = doubtfulEvery > 0 && i % doubtfulEvery === 0;
    const order = stack.store.addOrder({
      payment: cod && i % 4 === 1 ? "cod" : "paid",
      customerLocale: i % 2 ? "ar" : "en",
      phone,
      shippingAddress: {
        firstName: "Shopper",
        lastName: String(phoneSeq),
        ...(doubtful ? DOUBTFUL[i % DOUBTFUL.length]! : CLEAR),
        phone,
      },
      lineItems: [{ title: "Oud Perfume 100ml", price: "12.500" }],
    });
    ids.push(order.id);
  }
  return ids;
}

/** Minutes after midnight in Kuwait (UTC+3). */
const kuwaitMinute = (at: Date) => (at.getUTCHours() * 60 + at.getUTCMinutes() + 180) % 1440;

export async function messagesPart(options: {
  dir: string;
  orders: number;
  rescues: number;
  log: Log;
}): Promise<MessageFigures> {
  const { log } = options;
  const stack = await startShopperStack({
    dir: options.dir,
    name: "messages",
    whatsapp: {
      accessToken: ACCESS_TOKEN,
      appSecret: APP_SECRET,
      // Meta tries a callback the app did not take again, less and less often, for days.
      callbackRetryDelaysMs: [500, 1_000, 2_000, 4_000, 8_000, 15_000, 30_000, 60_000],
    },
    env: { WHATSAPP_CONFIRM_WAIT_MS: String(CONFIRM_WAIT_MS) },
  });
  const whatsapp = stack.whatsapp!;
  const started = performance.now();
  try {
    const { default: prisma } = await import("../app/db.server");
    const { saveWhatsAppConnection, saveWhatsAppPreferences, setWhatsAppEnabled } =
      await import("../app/models/whatsapp-account.server");
    const { DEFAULT_TEMPLATE_NAMES } = await import("../app/domain/shopper-message");
    await prisma.shopSettings.update({
      where: { shop: SHOP },
      data: { askShoppers: true, askCashConfirmation: true, askWindowHours: 24 },
    });
    await saveWhatsAppConnection({
      shop: SHOP,
      phoneNumberId: PHONE_NUMBER_ID,
      accessToken: ACCESS_TOKEN,
      appSecret: APP_SECRET,
      at: new Date(),
    });
    await setWhatsAppEnabled(SHOP, true);
    const account = await prisma.whatsAppAccount.findUniqueOrThrow({ where: { shop: SHOP } });
    const callbackUrl = `${stack.appUrl}/whatsapp/webhooks/${account.webhookToken}`;
    // Meta's handshake, as when the merchant registers the callback address.
    const challenge = await fetch(
      `${callbackUrl}?hub.mode=subscribe&hub.verify_token=${account.verifyToken}&hub.challenge=4242`,
    );
    if ((await challenge.text()) !== "4242") throw new Error("the callback handshake failed");
    whatsapp.setWebhookUrl(callbackUrl);
    const preferences = (quiet: { from: number; until: number }, cap = 3) =>
      saveWhatsAppPreferences(SHOP, {
        templates: DEFAULT_TEMPLATE_NAMES,
        quiet,
        dailyCapPerOrder: cap,
      });

    // ---- 1. quiet hours --------------------------------------------------------------------
    const now = new Date();
    const from = kuwaitMinute(now);
    const quietStart = new Date(now.getTime() - (now.getTime() % 60_000));
    const quietEnd = new Date(quietStart.getTime() + 2 * 60_000);
    await preferences({ from, until: (from + 2) % 1440 });
    const quietOrders = Math.max(5, Math.round(options.orders / 10));
    addOrders(stack, quietOrders);
    await stack.shopify.webhooks.flush();
    await until("the quiet-hours orders asked", async () =>
      (await prisma.shopperMessage.count({ where: { shop: SHOP } })) >= quietOrders ? true : null,
    );
    const quietHoursHeld = await prisma.shopperMessage.count({
      where: { shop: SHOP, state: "queued", nextAttemptAt: { gte: quietEnd } },
    });
    log(
      `  quiet hours until ${quietEnd.toISOString().slice(11, 16)} UTC: ${quietHoursHeld} of ${quietOrders} messages waiting for them to end`,
    );
    await until(
      "the quiet-hours messages sent after the quiet hours",
      async () => (whatsapp.messages.length >= quietOrders ? true : null),
      200_000,
    );
    const messagesInQuietHours = whatsapp.messages.filter(
      (m) => m.receivedAt >= quietStart && m.receivedAt < quietEnd,
    ).length;
    await preferences({ from: 0, until: 0 });

    // ---- 2. faults -------------------------------------------------------------------------
    const faults = [
      { kind: "server-error", status: 503 },
      { kind: "rate-limit", retryAfterSeconds: 1 },
      { kind: "server-error-after-send", status: 500 },
      { kind: "timeout-after-send" },
      { kind: "graph-error", status: 400, code: 131056, message: "Pair rate limit hit" },
      { kind: "server-error", status: 500 },
      { kind: "timeout" },
    ] as const;
    let faultsInjected = 0;
    for (const [i, fault] of faults.entries()) {
      whatsapp.injectFault({ kind: "none" }, 2 + i);
      whatsapp.injectFault(fault);
      faultsInjected += 1;
    }
    const beforeFaults = await prisma.shopperMessage.count({ where: { shop: SHOP } });
    addOrders(stack, options.orders, 2);
    await stack.shopify.webhooks.flush();
    // Every orders/create delivered again, as Shopify's retries and redeliveries are.
    const created = stack.shopify.webhooks.of("orders/create");
    for (const webhook of created) await stack.shopify.webhooks.redeliver(webhook.webhookId);
    await stack.shopify.webhooks.flush();
    const owedNow = async () =>
      prisma.shopperMessage.count({ where: { shop: SHOP, state: { not: "skipped" } } });
    const settled = () =>
      until(
        "every message settled",
        async () =>
          (await prisma.shopperMessage.count({
            where: { shop: SHOP, state: { in: ["queued", "sending", "unconfirmed"] } },
          })) === 0 && (await owedNow()) > beforeFaults
            ? true
            : null,
        300_000,
      );
    await settled();
    faultsInjected -= whatsapp.clearFaults();

    // The server killed (SIGKILL) while a send hangs: WhatsApp took the message, its answer never
    // came, its callbacks come a moment later and find the server down, then tried again.
    let serverKills = 0;
    whatsapp.injectFault({ kind: "timeout-after-send" });
    whatsapp.setCallbackDelay(1_500);
    const beforeKill = await owedNow();
    addOrders(stack, 2);
    await stack.shopify.webhooks.flush();
    const hanging = await until(
      "a send in flight",
      async () =>
        (await prisma.shopperMessage.findFirst({ where: { shop: SHOP, state: "sending" } })) ??
        null,
      60_000,
    );
    if (hanging) {
      await stack.killAndRestart();
      serverKills += 1;
    }
    whatsapp.setCallbackDelay(0);
    await until("the kill's messages owed", async () =>
      (await owedNow()) > beforeKill ? true : null,
    );
    await settled();
    await whatsapp.flushCallbacks();
    log(
      `  ${faultsInjected} WhatsApp faults and ${serverKills} server kill(s); ${created.length} orders/create webhooks delivered twice`,
    );

    // Every callback replayed (same body, same signature), and forged ones.
    const post = (body: string, signature: string) =>
      fetch(callbackUrl, {
        method: "POST",
        headers: { "content-type": "application/json", "x-hub-signature-256": signature },
        body,
      });
    const callbacks: StatusCallback[] = [...whatsapp.callbacks];
    let replayed = 0;
    const replayStatuses = new Map<number, number>();
    for (const callback of callbacks) {
      const { status } = await post(callback.body, callback.signature);
      replayStatuses.set(status, (replayStatuses.get(status) ?? 0) + 1);
      if (status === 200) replayed += 1;
    }
    if (replayed < callbacks.length)
      log(`  replayed callbacks answered: ${JSON.stringify(Object.fromEntries(replayStatuses))}`);
    let forgedRefused = 0;
    const forged = Math.min(20, callbacks.length);
    for (const callback of callbacks.slice(0, forged)) {
      const body = callback.body.replace('"read"', '"failed"').replace('"sent"', '"failed"');
      const response = await post(body, `sha256=${"0".repeat(64)}`);
      if (response.status === 401 || response.status === 403) forgedRefused += 1;
    }

    // ---- 3. the second chance --------------------------------------------------------------
    const rescueFigures = await rescues(stack, options.rescues, log);

    // ---- counted from the stand-in's record -----------------------------------------------
    const byQuestion = new Map<string, number>();
    for (const message of whatsapp.messages) {
      const key = `${message.to}:${message.template.name}`;
      byQuestion.set(key, (byQuestion.get(key) ?? 0) + 1);
    }
    const duplicateMessages = [...byQuestion.values()].reduce((n, c) => n + (c - 1), 0);
    const messagesOwed = await owedNow();
    const verified = whatsapp.callbacks.filter((c) => c.responseStatus === 200).length;
    const figures: MessageFigures = {
      messagesOwed,
      messagesSent: whatsapp.messages.length,
      duplicateMessages,
      messagesInQuietHours,
      quietHoursHeld,
      faultsInjected,
      serverKills,
      ordersWebhookReplays: created.length,
      statusCallbacks: whatsapp.callbacks.length,
      statusCallbacksVerified: verified,
      statusCallbacksReplayed: replayed,
      forgedCallbacks: forged,
      forgedRefused,
      ...rescueFigures,
      messageSeconds: round((performance.now() - started) / 1000, 1),
    };
    const failed = await prisma.shopperMessage.count({ where: { shop: SHOP, state: "failed" } });
    log(
      `  ${figures.messagesSent} messages reached shoppers for ${messagesOwed} owed (${failed} given up, said why), ${duplicateMessages} duplicates; ${messagesInQuietHours} in quiet hours`,
    );
    log(
      `  callbacks: ${verified} of ${figures.statusCallbacks} taken (signature verified), ${replayed} replays answered 200 and changed nothing, ${forgedRefused} of ${forged} forged refused`,
    );
    await prisma.$disconnect();
    return figures;
  } catch (error) {
    console.error(stack.server().log().split("\n").slice(-30).join("\n"));
    throw error;
  } finally {
    await stack.close();
  }
}

/** Parcels the courier fails to deliver: the message after the failed status, and the answers. */
async function rescues(stack: ShopperStack, count: number, log: Log) {
  const { default: prisma } = await import("../app/db.server");
  const whatsapp = stack.whatsapp!;
  // Clear addresses, paid: nothing asked before sending, so every one goes to the courier.
  const ids = addOrders(stack, count, 0, false);
  await stack.shopify.webhooks.flush();
  for (const id of ids) stack.store.fulfillOrder(id);
  await stack.shopify.webhooks.flush();
  const orderIds = ids.map((id) => `gid://shopify/Order/${id}`);
  const deliveries = await until("the parcels at the courier", async () => {
    const rows = await prisma.delivery.findMany({
      where: { shop: SHOP, orderId: { in: orderIds }, courierOrderId: { not: null } },
      select: { id: true, orderId: true, courierOrderId: true },
    });
    return rows.length === ids.length && rows;
  });
  const before = whatsapp.messages.length;
  const failedAt = new Map<string, number>();
  for (const delivery of deliveries) {
    const order = stack.courier.orders.get(delivery.courierOrderId!);
    if (order) order.scenario = "fail_once";
    stack.courier.advance(delivery.courierOrderId!, "delivery_failed");
    failedAt.set(delivery.orderId, Date.now());
  }
  await stack.courier.flushWebhooks();
  await until(
    "a message after every failed attempt",
    async () =>
      whatsapp.messages.filter((m) => m.template.name === "failed_attempt").length >= count
        ? true
        : null,
    180_000,
  ).catch(() => null);
  const rescueMessages = whatsapp.messages.filter((m) => m.template.name === "failed_attempt");
  const latencies: number[] = [];
  const asks = await prisma.shopperAsk.findMany({
    where: { shop: SHOP, orderId: { in: orderIds }, kind: "after_failed_attempt" },
  });
  for (const ask of asks) {
    const message = rescueMessages.find((m) => m.template.buttonUrlParameter === ask.token);
    const at = failedAt.get(ask.orderId);
    if (message && at) latencies.push(message.receivedAt.getTime() - at);
  }
  // The shoppers tap the message's link and answer: the address, their phone, when they will be in.
  const { loadCourierDirectory } = await import("../app/services/courier-directory.server");
  const directory = (await loadCourierDirectory(SHOP, "sandbox"))!;
  const area = directory.areas.find((a) => /جابري/.test(a.name)) ?? directory.areas[0]!;
  let answered = 0;
  let client = 0;
  for (const message of rescueMessages) {
    const link = whatsapp.tap(message.id);
    const headers = {
      "user-agent": HUMAN_USER_AGENT,
      "x-forwarded-for": `10.9.${(client >> 8) & 255}.${client++ & 255}`,
    };
    const page = await fetch(link, { headers });
    const html = await page.text();
    if (page.status !== 200) continue;
    const day = /value="(\d{4}-\d{2}-\d{2})"/.exec(html)?.[1];
    const response = await fetch(link, {
      method: "POST",
      headers: {
        ...headers,
        origin: new URL(link).origin,
        "content-type": "application/x-www-form-urlencoded",
      },
      body: new URLSearchParams({
        intent: "rescue",
        governanceId: String(area.governanceId),
        areaId: String(area.id),
        block: "1",
        street: "2",
        house: "3",
        phone: `+${message.to}`,
        whenDay: day ?? "",
        whenPart: "evening",
        whenNote: "After 6 pm, ring the bell",
      }).toString(),
      redirect: "manual",
    });
    await response.text();
    if (response.status === 303 || response.status === 302) answered += 1;
  }
  log(
    `  second chance: ${asks.length} asks opened after ${count} failed attempts, ${rescueMessages.length} messages (${whatsapp.messages.length - before} in all since), ${answered} answered from the link; failed status → message p95 ${round(percentile(latencies, 95))} ms`,
  );
  return {
    rescuesOpened: asks.length,
    rescueMessages: rescueMessages.length,
    rescuesAnswered: answered,
    failedToMessageP50Ms: round(percentile(latencies, 50)),
    failedToMessageP95Ms: round(percentile(latencies, 95)),
  };
}
