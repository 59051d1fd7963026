import { afterAll, beforeAll, describe, expect, it } from "vitest";
import prisma from "../../app/db.server";
import { resetEnvForTests } from "../../app/env.server";
import { redactCustomer, deleteShopData } from "../../app/models/privacy.server";
import { saveWhatsAppConnection } from "../../app/models/whatsapp-account.server";
import { isOptedOut, optOutDigest } from "../../app/models/whatsapp-opt-outs.server";
import { action, loader } from "../../app/routes/whatsapp.webhooks.$token";
import { sendTemplate, signStatusCallback } from "../../app/whatsapp";
import { startWhatsAppStandIn, type WhatsAppStandIn } from "../../sandbox/whatsapp";
import { loader as deliveryLoader } from "../../app/routes/app.deliveries.$id";
import { adminFetchRequest, callRoute, installShop, shopDomain } from "../support/shopify";

const shop = shopDomain("wa-callbacks");
const otherShop = shopDomain("wa-callbacks-other");
const TOKEN = "stand-in-token";
const APP_SECRET = "stand-in-app-secret";
const PHONE_NUMBER_ID = "106540352242922";
const SHOPPER = "96599001234";
const ORDER = "gid://shopify/Order/7001";

let standIn: WhatsAppStandIn;

beforeAll(async () => {
  standIn = await startWhatsAppStandIn({
    accessToken: TOKEN,
    appSecret: APP_SECRET,
    statusFlow: "none",
  });
  process.env.WHATSAPP_API_URL = standIn.url;
  resetEnvForTests();
});
afterAll(async () => {
  await standIn.close();
});

async function connect(forShop = shop, appSecret = APP_SECRET) {
  await saveWhatsAppConnection({
    shop: forShop,
    phoneNumberId: PHONE_NUMBER_ID,
    accessToken: TOKEN,
    appSecret,
    at: new Date(),
  });
  const account = await prisma.whatsAppAccount.findUniqueOrThrow({ where: { shop: forShop } });
  return account;
}

/** A message sent through the stand-in, and its outbox row as the message loop leaves it. */
async function sentMessage(forShop = shop, fields: { wamid?: boolean; state?: string } = {}) {
  const sent = await sendTemplate(
    {
      phoneNumberId: PHONE_NUMBER_ID,
      accessToken: TOKEN,
      to: SHOPPER,
      template: {
        name: "address_check",
        languageCode: "ar",
        bodyParameters: ["Shop", "#1001"],
        buttonUrlParameter: "tok",
      },
    },
    { baseUrl: standIn.url },
  );
  const row = await prisma.shopperMessage.create({
    data: {
      shop: forShop,
      orderId: ORDER,
      orderName: "#1001",
      purpose: "address_check",
      dedupeKey: `ask:a${Math.random()}:1:address_check`,
      language: "ar",
      state: fields.state ?? "sending",
      toPhone: SHOPPER,
      notBefore: new Date(),
      wamid: fields.wamid === false ? null : sent.messageId,
    },
  });
  return { wamid: sent.messageId, row };
}

function post(token: string, body: string, signature: string | null) {
  const headers: Record<string, string> = { "content-type": "application/json" };
  if (signature !== null) headers["x-hub-signature-256"] = signature;
  return callRoute(
    action,
    new Request(`https://app.example/whatsapp/webhooks/${token}`, {
      method: "POST",
      headers,
      body,
    }),
    { token },
  );
}

/** Posts the stand-in's own signed callback for a status of a message. */
async function deliverStatus(
  token: string,
  wamid: string,
  status: "sent" | "delivered" | "read" | "failed",
  error?: { code: number; title: string },
) {
  const callback = await standIn.sendStatus(wamid, status, error);
  return post(token, callback.body, callback.signature);
}

const rowOf = (id: string) => prisma.shopperMessage.findUniqueOrThrow({ where: { id } });

describe("Meta's handshake on the callback URL", () => {
  it("echoes the challenge for the shop's verify token and records the verification", async () => {
    const account = await connect();
    const url = `https://app.example/whatsapp/webhooks/${account.webhookToken}?hub.mode=subscribe&hub.verify_token=${account.verifyToken}&hub.challenge=1158201444`;
    const response = await callRoute(loader, new Request(url), { token: account.webhookToken });
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toMatch(/^text\/plain/);
    expect(await response.text()).toBe("1158201444");
    const after = await prisma.whatsAppAccount.findUniqueOrThrow({ where: { shop } });
    expect(after.webhookVerifiedAt).not.toBeNull();
  });

  it("refuses a wrong verify token with 403 and records nothing", async () => {
    const account = await connect();
    const url = `https://app.example/whatsapp/webhooks/${account.webhookToken}?hub.mode=subscribe&hub.verify_token=${account.verifyToken}x&hub.challenge=42`;
    const response = await callRoute(loader, new Request(url), { token: account.webhookToken });
    expect(response.status).toBe(403);
    const after = await prisma.whatsAppAccount.findUniqueOrThrow({ where: { shop } });
    expect(after.webhookVerifiedAt).toBeNull();
  });

  it("answers 404 for a callback URL no shop has", async () => {
    const response = await callRoute(
      loader,
      new Request(
        "https://app.example/whatsapp/webhooks/nobody?hub.mode=subscribe&hub.verify_token=x&hub.challenge=1",
      ),
      { token: "nobody" },
    );
    expect(response.status).toBe(404);
  });
});

describe("status callbacks", () => {
  it("moves a message from sent to delivered to read with the stand-in's signed callbacks", async () => {
    const account = await connect();
    const { wamid, row } = await sentMessage();
    expect((await deliverStatus(account.webhookToken, wamid, "sent")).status).toBe(200);
    expect(await rowOf(row.id)).toMatchObject({ state: "sent", toPhone: null });
    await deliverStatus(account.webhookToken, wamid, "delivered");
    expect((await rowOf(row.id)).state).toBe("delivered");
    await deliverStatus(account.webhookToken, wamid, "read");
    const read = await rowOf(row.id);
    expect(read.state).toBe("read");
    expect(read.sentAt).not.toBeNull();
    expect(read.deliveredAt).not.toBeNull();
    expect(read.readAt).not.toBeNull();
  });

  it("never moves a read message back when delivered arrives late", async () => {
    const account = await connect();
    const { wamid, row } = await sentMessage();
    await deliverStatus(account.webhookToken, wamid, "read");
    await deliverStatus(account.webhookToken, wamid, "sent");
    await deliverStatus(account.webhookToken, wamid, "delivered");
    const after = await rowOf(row.id);
    expect(after.state).toBe("read");
    expect(after.deliveredAt).not.toBeNull();
  });

  it("changes nothing when the same callback is replayed", async () => {
    const account = await connect();
    const { wamid, row } = await sentMessage();
    const callback = await standIn.sendStatus(wamid, "delivered");
    await post(account.webhookToken, callback.body, callback.signature);
    const first = await rowOf(row.id);
    const again = await post(account.webhookToken, callback.body, callback.signature);
    expect(again.status).toBe(200);
    expect(await again.json()).toMatchObject({ applied: 0, unchanged: 1 });
    expect(await rowOf(row.id)).toEqual(first);
  });

  it("records a failure with its reason in words", async () => {
    const account = await connect();
    const { wamid, row } = await sentMessage();
    await deliverStatus(account.webhookToken, wamid, "failed", {
      code: 131026,
      title: "Message undeliverable",
    });
    const after = await rowOf(row.id);
    expect(after.state).toBe("failed");
    expect(after.failedAt).not.toBeNull();
    expect(after.lastError).toMatch(/not on WhatsApp/);
    expect(after.toPhone).toBeNull();
  });

  it("refuses a forged signature with 401 and changes nothing", async () => {
    const account = await connect();
    const { wamid, row } = await sentMessage();
    const callback = await standIn.sendStatus(wamid, "read");
    const forged = await post(
      account.webhookToken,
      callback.body,
      signStatusCallback(callback.body, "someone else's secret"),
    );
    expect(forged.status).toBe(401);
    expect((await post(account.webhookToken, callback.body, null)).status).toBe(401);
    const tampered = callback.body.replace('"read"', '"failed"');
    expect((await post(account.webhookToken, tampered, callback.signature)).status).toBe(401);
    expect(await rowOf(row.id)).toEqual(row);
  });

  it("does not let another shop's callback URL touch this shop's messages", async () => {
    await connect();
    // The other shop's Meta app is signed with the same secret here: only the URL differs.
    const other = await connect(otherShop);
    const { wamid, row } = await sentMessage(shop);
    const response = await deliverStatus(other.webhookToken, wamid, "read");
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({ applied: 0, unknown: 1 });
    expect(await rowOf(row.id)).toEqual(row);
  });

  it("confirms a send whose answer was lost by the row id Meta echoes", async () => {
    const account = await connect();
    const { wamid, row } = await sentMessage(shop, { wamid: false, state: "unconfirmed" });
    const callback = await standIn.sendStatus(wamid, "sent");
    const body = JSON.parse(callback.body);
    body.entry[0].changes[0].value.statuses[0].biz_opaque_callback_data = row.id;
    const raw = JSON.stringify(body);
    await post(account.webhookToken, raw, signStatusCallback(raw, APP_SECRET));
    expect(await rowOf(row.id)).toMatchObject({ state: "sent", wamid });
  });

  it("refuses a body over 256 KB with 413", async () => {
    const account = await connect();
    const raw = JSON.stringify({ object: "whatsapp_business_account", pad: "x".repeat(300_000) });
    const response = await post(account.webhookToken, raw, signStatusCallback(raw, APP_SECRET));
    expect(response.status).toBe(413);
  });

  it("answers 404 for a callback URL no shop has", async () => {
    expect((await post("nobody", "{}", "sha256=00")).status).toBe(404);
  });
});

describe("opting out", () => {
  it("remembers a shopper who answered STOP, by a digest of the number only", async () => {
    const account = await connect();
    const body = JSON.stringify({
      object: "whatsapp_business_account",
      entry: [
        {
          id: "102290129340398",
          changes: [
            {
              field: "messages",
              value: {
                messaging_product: "whatsapp",
                metadata: { phone_number_id: PHONE_NUMBER_ID },
                contacts: [{ wa_id: SHOPPER, profile: { name: "Shopper" } }],
                messages: [
                  {
                    from: SHOPPER,
                    id: "wamid.in1",
                    timestamp: "1750263800",
                    type: "text",
                    text: { body: "إيقاف" },
                  },
                ],
              },
            },
          ],
        },
      ],
    });
    const response = await post(account.webhookToken, body, signStatusCallback(body, APP_SECRET));
    expect(response.status).toBe(200);
    expect(await isOptedOut(shop, `+${SHOPPER}`)).toBe(true);
    expect(await isOptedOut(otherShop, SHOPPER)).toBe(false);
    const rows = await prisma.whatsAppOptOut.findMany({ where: { shop } });
    expect(rows).toEqual([
      expect.objectContaining({ phoneDigest: optOutDigest(shop, SHOPPER), source: "stop_reply" }),
    ]);
    expect(JSON.stringify(rows)).not.toContain(SHOPPER.slice(3));
  });

  it("does not opt out a shopper whose reply only mentions stopping", async () => {
    const account = await connect();
    const body = JSON.stringify({
      object: "whatsapp_business_account",
      entry: [
        {
          id: "1",
          changes: [
            {
              value: {
                metadata: { phone_number_id: PHONE_NUMBER_ID },
                messages: [
                  {
                    from: SHOPPER,
                    timestamp: "1750263800",
                    type: "text",
                    text: { body: "please don't stop the delivery" },
                  },
                ],
              },
            },
          ],
        },
      ],
    });
    await post(account.webhookToken, body, signStatusCallback(body, APP_SECRET));
    expect(await isOptedOut(shop, SHOPPER)).toBe(false);
  });

  it("remembers a shopper Meta reports as having stopped the business's messages (131050)", async () => {
    const account = await connect();
    const { wamid } = await sentMessage();
    await deliverStatus(account.webhookToken, wamid, "failed", {
      code: 131050,
      title: "User has stopped marketing messages",
    });
    expect(await isOptedOut(shop, SHOPPER)).toBe(true);
  });
});

describe("privacy", () => {
  it("clears the customer's numbers from their orders' messages at customers/redact", async () => {
    await connect();
    const { row } = await sentMessage(shop, { state: "sending" });
    const queued = await prisma.shopperMessage.create({
      data: {
        ...row,
        id: undefined,
        wamid: null,
        state: "queued",
        dedupeKey: "delivery:d1:out_for_delivery",
      },
    });
    await redactCustomer({ shop, webhookId: "w-redact", customerId: "1", orderIds: ["7001"] });
    expect(await rowOf(row.id)).toMatchObject({ toPhone: null, state: "sending" });
    expect(await rowOf(queued.id)).toMatchObject({
      toPhone: null,
      state: "skipped",
      skipReason: "erased",
    });
  });

  it("deletes the shop's WhatsApp account, messages and opt-outs at shop/redact", async () => {
    const account = await connect();
    await connect(otherShop);
    const { wamid } = await sentMessage();
    await sentMessage(otherShop);
    await deliverStatus(account.webhookToken, wamid, "failed", { code: 131050, title: "stopped" });
    await deleteShopData(shop);
    expect(await prisma.whatsAppAccount.count({ where: { shop } })).toBe(0);
    expect(await prisma.shopperMessage.count({ where: { shop } })).toBe(0);
    expect(await prisma.whatsAppOptOut.count({ where: { shop } })).toBe(0);
    expect(await prisma.whatsAppAccount.count({ where: { shop: otherShop } })).toBe(1);
    expect(await prisma.shopperMessage.count({ where: { shop: otherShop } })).toBe(1);
  });
});

describe("the delivery page", () => {
  async function deliveryOf(forShop: string) {
    return prisma.delivery.create({
      data: {
        shop: forShop,
        orderId: ORDER,
        orderName: "#1001",
        fulfillmentId: `gid://shopify/Fulfillment/${forShop.length}`,
        source: "webhook",
        state: "pending",
        environment: "sandbox",
        reference: `SHPFY-wa-${forShop.length}`,
      },
    });
  }

  it("lists the order's WhatsApp messages with their latest status, without the number", async () => {
    await installShop(shop);
    const account = await connect();
    const { wamid } = await sentMessage();
    await deliverStatus(account.webhookToken, wamid, "delivered");
    const tomorrow = new Date(Date.now() + 10 * 3_600_000);
    await prisma.shopperMessage.create({
      data: {
        shop,
        orderId: ORDER,
        purpose: "out_for_delivery",
        dedupeKey: "delivery:x:out_for_delivery",
        language: "en",
        state: "queued",
        toPhone: SHOPPER,
        notBefore: tomorrow,
        nextAttemptAt: tomorrow,
      },
    });
    // Another shop's message for an order of the same id is not this shop's.
    await sentMessage(otherShop);
    const delivery = await deliveryOf(shop);
    const response = await callRoute(
      deliveryLoader,
      await adminFetchRequest(shop, `/app/deliveries/${delivery.id}`),
      { id: delivery.id },
    );
    const page = await response.json();
    expect(page.whatsAppMessages).toEqual([
      expect.objectContaining({ purpose: "address_check", state: "delivered", waitingUntil: null }),
      expect.objectContaining({
        purpose: "out_for_delivery",
        state: "queued",
        waitingUntil: tomorrow.toISOString(),
      }),
    ]);
    expect(JSON.stringify(page.whatsAppMessages)).not.toContain(SHOPPER);
  });
});
